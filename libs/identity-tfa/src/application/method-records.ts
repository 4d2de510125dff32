import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { TfaMethod, toMethodRecord } from '../domain/tfa-method';
import { channelView } from '../domain/verification-failures';
import { VerificationLedger } from './ports/verification-ledger.port';

/** Method records with the fail_count and locked_until the failure ledger holds now. */
@Injectable()
export class MethodRecords {
  constructor(
    private readonly ledger: VerificationLedger,
    private readonly clock: Clock,
  ) {}

  async of(userId: number, methods: TfaMethod[]): Promise<Array<Record<string, unknown>>> {
    if (methods.length === 0) return [];
    const ledger = await this.ledger.load(userId);
    const nowMs = this.clock.nowMs();
    return methods.map((method) => toMethodRecord(method, channelView(ledger, method.type, nowMs)));
  }
}
