import { User } from '../../domain/user';

/**
 * A configured second factor of the user, as the login offers it: the "2FA method
 * record" of docs/identity-tfa.md in domain terms. Its wire form is `presentSecondFactorMethod` (accounts' http/),
 * which the 2FA routes answer too.
 */
export interface SecondFactorMethod {
  kind: 'method';
  id: number;
  userId: number;
  type: 'sms' | 'totp';
  label: string;
  /** SMS methods: the number as the second factor shows it (masked); null otherwise. */
  maskedPhoneNumber: string | null;
  isPrimary: boolean;
  /** Wrong codes of the method's channel that still count. */
  failCount: number;
  /** While the channel is locked: when the lock ends, epoch seconds (never before the real end). */
  lockedUntilSeconds: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A legacy account's SMS second factor: the phone on the user record, no method behind it. */
export interface LegacySecondFactor {
  kind: 'legacy';
  type: 'sms';
  maskedPhoneNumber: string;
}

/** The second step the password login hands to the client. */
export interface LoginChallenge {
  /** tfa_secret of a 10-minute login challenge; the 2FA routes take it back. */
  secret: string;
  /** What the user can complete the login with. */
  methods: Array<SecondFactorMethod | LegacySecondFactor>;
}

/**
 * Opens the 10-minute login challenge for an account with 2FA. Implemented by the
 * identity-tfa context; accounts only knows that a second factor exists.
 */
export abstract class LoginSecondFactor {
  abstract openLoginChallenge(user: User): Promise<LoginChallenge>;
}
