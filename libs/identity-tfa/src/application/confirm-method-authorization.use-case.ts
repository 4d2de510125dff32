import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/platform';
import { Challenge } from '../domain/challenge';
import { AddMethodGate } from './add-method-gate';
import { ChallengeService } from './challenge.service';
import { SecondFactorVerifier } from './second-factor-verifier';
import { tfaError } from './tfa-errors';
import { TfaUserLookup } from './tfa-user-lookup';

/** PUT authorize-new-method: the code of the pending authorization grants the window. */
@Injectable()
export class ConfirmMethodAuthorizationUseCase {
  constructor(
    private readonly lookup: TfaUserLookup,
    private readonly challenges: ChallengeService,
    private readonly verifier: SecondFactorVerifier,
    private readonly gate: AddMethodGate,
  ) {}

  async execute(command: { userId: number; code?: string; secret?: string }): Promise<void> {
    // docs/identity-tfa.md, "Missing values": the spec names missing_params for both.
    if (!command.code && !command.secret)
      throw tfaError('missing_params', 'Both code and secret are required.');
    if (!command.code) throw tfaError('missing_code', 'A code is required.');
    if (!command.secret)
      throw tfaError('missing_params', 'The secret of POST authorize-new-method is required.');
    const user = await this.lookup.user(command.userId);
    const challenge = await this.pending(command.secret);
    if (challenge.userId !== user.id || challenge.purpose !== 'authorize') throw this.noPending();
    // A grant that fails (Redis away) rolls back the spending of the code.
    await this.verifier.verifyAuthorizationCode(user, challenge, command.code, () =>
      this.gate.grant(user.id),
    );
  }

  private async pending(secret: string): Promise<Challenge> {
    try {
      return await this.challenges.load(secret);
    } catch (error) {
      if (error instanceof DomainError && error.code !== '2fa_expired') throw this.noPending();
      throw error;
    }
  }

  private noPending(): DomainError {
    return tfaError(
      'no_pending_authorization',
      'No pending authorization: call POST authorize-new-method first.',
    );
  }
}
