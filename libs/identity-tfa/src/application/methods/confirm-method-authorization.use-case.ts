import { Injectable } from '@nestjs/common';
import { DomainError, RequestOrigin } from '@app/platform';
import { Challenge } from '../../domain/challenge';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { AddMethodGate } from './add-method-gate.service';
import { ChallengeService } from '../challenges/challenge.service';
import { SecondFactorVerifier } from '../verification/second-factor-verifier.service';
import { TfaUserLookup } from '../login/tfa-user-lookup.service';

export interface ConfirmMethodAuthorizationCommand {
  userId: number;
  origin: RequestOrigin;
  code?: string;
  secret?: string;
}

/** PUT authorize-new-method: the code of the pending authorization grants the window. */
@Injectable()
export class ConfirmMethodAuthorizationUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly challenges: ChallengeService,
    private readonly verifier: SecondFactorVerifier,
    private readonly gate: AddMethodGate,
  ) {}

  async execute(command: ConfirmMethodAuthorizationCommand): Promise<void> {
    // docs/identity-tfa.md, "Missing values": missing_params when both are missing.
    if (!command.code && !command.secret)
      throw new TfaError('missing_params', 'Both code and secret are required.');
    if (!command.code) throw new TfaError('missing_code', TFA_ERROR_MESSAGES.codeRequired);
    if (!command.secret)
      throw new TfaError('missing_params', 'The secret of POST authorize-new-method is required.');
    const user = await this.lookup.user(command.userId);
    const challenge = await this.pending(command.secret);
    if (challenge.userId !== user.id || challenge.purpose !== 'authorize')
      throw new TfaError('no_pending_authorization', TFA_ERROR_MESSAGES.noPendingAuthorization);
    // A grant that fails (Redis away) rolls back the spending of the code.
    await this.verifier.verifyAuthorizationCode(user, challenge, command.code, command.origin, () =>
      this.gate.grant(user.id),
    );
  }

  /** An expired authorization says so; any other unusable secret is no pending authorization. */
  private async pending(secret: string): Promise<Challenge> {
    try {
      return await this.challenges.load(secret);
    } catch (error) {
      if (error instanceof DomainError && error.code !== '2fa_expired')
        throw new TfaError('no_pending_authorization', TFA_ERROR_MESSAGES.noPendingAuthorization);
      throw error;
    }
  }
}
