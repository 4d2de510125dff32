import { Injectable } from '@nestjs/common';
import { SecondFactorMethod } from '@app/accounts';
import { UnitOfWork } from '@app/platform';
import { TfaError } from '../domain/errors';
import { VerificationChannel } from '../domain/tfa-method';
import { MethodRecords } from './method-records.service';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { SecondFactorVerifier } from './second-factor-verifier.service';
import { TfaUserLookup } from './tfa-user-lookup.service';

export interface UpdateMethodCommand {
  userId: number;
  tfaMethodId?: number;
  tfaMethod?: VerificationChannel;
  label?: string;
  isPrimary?: boolean;
}

/** PUT update: label and primary flag of an SMS or TOTP method (email is not a method). */
@Injectable()
export class UpdateMethodUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly methods: TfaMethodRepository,
    private readonly verifier: SecondFactorVerifier,
    private readonly uow: UnitOfWork,
    private readonly records: MethodRecords,
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
    const updated = await this.uow.run(async () => {
      if (command.isPrimary === true) await this.methods.makeOnlyPrimary(user.id, method.id);
      return this.methods.update(method.id, {
        label: command.label,
        isPrimary: command.isPrimary,
      });
    });
    return this.records.one(user.id, updated);
  }
}
