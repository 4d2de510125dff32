/** The numbers behind the spec's Limits and the decisions, in one place. */
export const TFA_POLICY = {
  codeDigits: 6,
  challengeLifetimeMs: 10 * 60 * 1000,
  /** Wrong codes one challenge accepts before it is discarded. */
  maxChallengeAttempts: 5,
  /** Consecutive failed verifications that lock a method. */
  maxMethodFailures: 5,
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
