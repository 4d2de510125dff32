import { Injectable } from '@nestjs/common';
import { Clock, SecretKeeper } from '@app/platform';
import { TFA_ERROR_MESSAGES } from '../domain/error-messages';
import { TfaError } from '../domain/errors';
import { TfaMethod, totpSecretAad } from '../domain/tfa-method';
import { matchTotpStep } from '../domain/totp';
import { lockDetails } from '../domain/verification-failures';
import { TfaMethodRepository } from './ports/tfa-method.repository.port';
import { Attempt } from './verification-flow.service';

/** The TOTP factor: a code of the user's authenticator app, spent by its time step. */
@Injectable()
export class TotpVerifier {
  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  /** @throws tfa_method_not_configured when the method's secret cannot be read */
  attempt(method: TfaMethod, code: string): Attempt {
    const secret = method.totpSecretCiphertext
      ? this.secrets.decrypt(method.totpSecretCiphertext, totpSecretAad(method.id))
      : null;
    if (!secret)
      throw new TfaError(
        'tfa_method_not_configured',
        'The authenticator app secret cannot be read: remove and set up the method again.',
      );
    return {
      channel: 'totp',
      verified: async () => ({ kind: 'method', channel: 'totp', method }),
      // The compare-and-set of the last accepted step decides, as the consuming UPDATE does
      // for backup codes; it commits or rolls back with the action. A step at or below the
      // last accepted one was used already (RFC 6238 §5.2).
      compare: async (nowMs) => {
        const step = matchTotpStep(secret, code, nowMs, (a, b) => this.secrets.equal(a, b));
        if (step === null) return 'wrong';
        return (await this.methods.advanceTotpStep(method.id, step)) ? 'match' : 'replay';
      },
      spend: async () => {
        await this.methods.recordUse(method.id, this.clock.now());
        return true;
      },
      wrong: (failCount) =>
        new TfaError(
          '2fa_verification_failed',
          TFA_ERROR_MESSAGES.invalidCode,
          lockDetails(failCount, null),
        ),
      // Reported like a wrong code of the method, with its count, which a replay leaves as it is.
      replay: (view) =>
        new TfaError(
          '2fa_verification_failed',
          'This code was already used: wait for the next code of your authenticator app.',
          lockDetails(view.failCount, view.lockedUntilMs),
        ),
    };
  }
}
