import { Injectable } from '@nestjs/common';
import { SecondFactorMethod } from '@app/accounts';
import { RequestOrigin, UnitOfWork } from '@app/platform';
import { TfaError } from '../../domain/errors';
import { VerificationChannel } from '../../domain/tfa-method';
import { MethodRecords } from './method-records.service';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { SecondFactorVerifier } from '../verification/second-factor-verifier.service';
import { SecurityEventLog } from '@app/account-security';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface UpdateMethodCommand {
  userId: number;
  tfaMethodId?: number;
  tfaMethod?: VerificationChannel;
  label?: string;
  isPrimary?: boolean;
  origin: RequestOrigin;
}

/**
 * PUT update: label and primary flag of an SMS or TOTP method (email is not a method).
 * A change records method_updated naming the fields that changed (never their values).
 */
@Injectable()
export class UpdateMethodUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly verifier: SecondFactorVerifier,
    private readonly uow: UnitOfWork,
    private readonly records: MethodRecords,
    private readonly events: SecurityEventLog,
  ) {}

  async execute(command: UpdateMethodCommand): Promise<SecondFactorMethod> {
    if (command.tfaMethod === 'email')
      throw new TfaError('invalid_tfa_method', 'Email is not a stored 2FA method.');
    if (command.tfaMethodId === undefined && command.tfaMethod === undefined)
      throw new TfaError('bad_request', 'Invalid request: tfa_method_id or tfa_method is required');
    if (command.label === undefined && command.isPrimary === undefined)
      throw new TfaError('bad_request', 'Invalid request: label or is_primary is required');
    const user = await this.lookup.user(command.userId);
    const method = await this.verifier.resolveMethod(user, command);
    if (!method) throw new TfaError('not_found', `No ${command.tfaMethod} method is configured.`);
    const changed = [
      ...(command.label !== undefined && command.label !== method.label ? ['label'] : []),
      ...(command.isPrimary !== undefined && command.isPrimary !== method.isPrimary
        ? ['is_primary']
        : []),
    ];
    const updated = await this.uow.run(async () => {
      if (command.isPrimary === true) await this.methods.makeOnlyPrimary(user.id, method.id);
      const result = await this.methods.update(method.id, {
        label: command.label,
        isPrimary: command.isPrimary,
      });
      if (changed.length > 0)
        await this.events.record({
          userId: user.id,
          kind: 'method_updated',
          method: method.type,
          details: { method_id: method.id, changed },
          origin: command.origin,
        });
      return result;
    });
    return this.records.describe(user.id, updated);
  }
}
