/**
 * The `msg` of the 2FA errors raised in more than one place, so each reads the same
 * wherever it is raised (`throw new TfaError(code, TFA_ERROR_MESSAGES.x, details?)`).
 * A message raised in one place only stays beside its `throw`.
 */
export const TFA_ERROR_MESSAGES = {
  challengeNotFound: 'No challenge matches this secret.',
  challengeNoLongerActive: 'This code was already used or replaced; request a new one.',
  challengeExpired: 'The verification code has expired; request a new one.',
  /** A challenge (or its id under another secret) already spent by a verification. */
  challengeSpent: 'This code was already used; request a new one.',
  tooManySends: 'Too many codes requested for this challenge; start over.',
  invalidCode: 'Invalid verification code.',
  locked: 'Too many failed attempts: this 2FA method is locked for 15 minutes.',
  codeRequired: 'A code is required.',
  codeSentElsewhere: 'The code was sent to a different phone number.',
  emailNotVerified: 'Verify your email address before using 2FA codes.',
  missingEmail: 'No email address is on the account.',
  noPendingAuthorization: 'No pending authorization: call POST authorize-new-method first.',
  targetRequired: 'Invalid request: target_id is required',
  noSuchMethod: (id: number) => `No 2FA method ${id}.`,
  duplicateMethod: (type: string) => `A ${type} method is already configured.`,
} as const;
