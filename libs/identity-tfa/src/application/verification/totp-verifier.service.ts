import { Injectable } from '@nestjs/common';
import { Clock, DomainError, SecretKeeper } from '@app/platform';
import { TFA_ERROR_MESSAGES } from '../../domain/error-messages';
import { TfaError } from '../../domain/errors';
import { TfaMethod, totpSecretAad } from '../../domain/tfa-method';
import { matchTotpStep } from '../../domain/totp';
import { lockDetails } from '../../domain/verification-failures';
import { TfaMethodRepository } from '../ports/tfa-method.repository.port';
import { Comparison, FactorVerifier, Verified } from './verification-flow.service';

/**
 * A code of the user's authenticator app, spent by its time step: the compare-and-set of
 * the last accepted step decides, as the consuming UPDATE does for backup codes; it
 * commits or rolls back with the action. A step at or below the last accepted one was used
 * already (RFC 6238 §5.2).
 */
export class TotpCode implements FactorVerifier {
  readonly channel = 'totp' as const;

  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
    private readonly method: TfaMethod,
    private readonly secret: string,
    private readonly code: string,
  ) {}

  /**
   * Spends the code's time step when it matches, recording the method's use in the same
   * statement (advanceTotpStep): a match is always spent, so one round trip does both.
   */
  async verify(nowMs: number): Promise<Comparison> {
    const step = matchTotpStep(this.secret, this.code, nowMs, (a, b) => this.secrets.equal(a, b));
    if (step === null) return 'wrong';
    const advanced = await this.methods.advanceTotpStep(this.method.id, step, this.clock.now());
    return advanced ? 'match' : 'replay';
  }

  /** The step and the method's use were recorded by verify, in this transaction. */
  async spend(): Promise<boolean> {
    return true;
  }

  async retire(): Promise<void> {}

  async verified(): Promise<Verified> {
    return { kind: 'method', channel: 'totp', method: this.method };
  }

  wrongCode(failCount: number): DomainError {
    return new TfaError(
      '2fa_verification_failed',
      TFA_ERROR_MESSAGES.invalidCode,
      lockDetails(failCount, null),
    );
  }

  /** Reported like a wrong code of the method, with its count, which a replay leaves as it is. */
  replayedCode(view: { failCount: number; lockedUntilMs: number | null }): DomainError {
    return new TfaError(
      '2fa_verification_failed',
      'This code was already used: wait for the next code of your authenticator app.',
      lockDetails(view.failCount, view.lockedUntilMs),
    );
  }
}

/** The TOTP factor: reads the method's secret and makes the request's TotpCode. */
@Injectable()
export class TotpVerifier {
  constructor(
    private readonly methods: TfaMethodRepository,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  /** @throws tfa_method_not_configured when the method's secret cannot be read */
  factor(method: TfaMethod, code: string): TotpCode {
    const secret = method.totpSecretCiphertext
      ? this.secrets.decrypt(method.totpSecretCiphertext, totpSecretAad(method.id))
      : null;
    if (!secret)
      throw new TfaError(
        'tfa_method_not_configured',
        'The authenticator app secret cannot be read: remove and set up the method again.',
      );
    return new TotpCode(this.methods, this.secrets, this.clock, method, secret, code);
  }
}
