import { Injectable } from '@nestjs/common';
import { SecondFactorMethod } from '@app/accounts';
import { Clock } from '@app/platform';
import { describeMethod, TfaMethod } from '../../domain/tfa-method';
import { channelView } from '../../domain/verification-failures';
import { VerificationLedger } from '../ports/verification-ledger.port';

/** Methods as the method record (docs/identity-tfa.md) shows them: with the ledger's fail_count and lock now. */
@Injectable()
export class MethodRecords {
  constructor(
    private readonly ledger: VerificationLedger,
    private readonly clock: Clock,
  ) {}

  async describeAll(userId: number, methods: TfaMethod[]): Promise<SecondFactorMethod[]> {
    if (methods.length === 0) return [];
    const ledger = await this.ledger.load(userId);
    const nowMs = this.clock.nowMs();
    return methods.map((method) => describeMethod(method, channelView(ledger, method.type, nowMs)));
  }

  async describe(userId: number, method: TfaMethod): Promise<SecondFactorMethod> {
    const [record] = await this.describeAll(userId, [method]);
    return record;
  }
}
