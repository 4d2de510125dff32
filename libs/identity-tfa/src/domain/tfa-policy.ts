/** The numbers behind the 2FA limits and decisions (docs/identity-tfa.md), in one place. */
export const TFA_POLICY = {
  codeDigits: 6,
  challengeLifetimeMs: 10 * 60 * 1000,
  /**
   * Wrong codes compared on one channel (totp, sms, email, backup codes) of one user
   * within the failure window; the one that reaches it locks the channel.
   */
  maxChannelFailures: 5,
  /** Wrong codes over all of a user's channels within the window; reaching it locks them all. */
  maxUserFailures: 10,
  /** Failures older than this stop counting. */
  failureWindowMs: 15 * 60 * 1000,
  methodLockMs: 15 * 60 * 1000,
  authorizationWindowMs: 30 * 60 * 1000,
  backupCodesPerSet: 10,
  labelMaxLength: 30,
  /** A second POST /tfa/sms/ within this window answers tfa_challenge_exists (use resend). */
  recentSmsWindowMs: 60 * 1000,
  /** Sends (first send plus resends) one challenge allows. */
  maxSendsPerChallenge: 5,
  /** tfa_secret entropy. */
  secretBits: 128,
  totpStepSeconds: 30,
  totpSecretBytes: 20,
} as const;

/**
 * The deployment's own 2FA settings, loaded and validated at boot
 * (infrastructure/tfa-config.ts); the policy numbers above are not configurable.
 */
export class TfaSettings {
  totpIssuer: string;
  /** CODE_MESSAGE_BRAND: the product's name in the wording of codes. */
  messageBrand: string;
}
