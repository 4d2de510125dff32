export type TfaStatus = 'enabled' | 'disabled' | 'legacy';
export const TFA_STATUSES: readonly TfaStatus[] = ['enabled', 'disabled', 'legacy'];

/** An account holder as the rest of the system sees it. Never carries a password hash. */
export interface User {
  id: number;
  email: string;
  username: string | null;
  fullName: string;
  emailVerifiedAt: Date | null;
  isAdmin: boolean;
  /** Phone on the user record: the legacy 2FA number and the default SMS destination. */
  phoneNumber: string | null;
  tfaEnabled: boolean;
  tfaStatus: TfaStatus;
  credit: number;
  balance: number;
  smsFraudFlaggedAt: Date | null;
  /**
   * The low-balance setting the public client writes (`vastai set user`): the balance in
   * dollars under which the user wants to hear of it, and whether that is on.
   */
  balanceThreshold: number;
  balanceThresholdEnabled: boolean;
  createdAt: Date;
}

/** What `PUT /api/v0/users/` may change: each field given. */
export interface UserSettingsChange {
  balanceThreshold?: number;
  balanceThresholdEnabled?: boolean;
}

/** The keys of the public client's user settings this service does not keep. */
export const UNSUPPORTED_USER_SETTINGS: readonly string[] = [
  'ssh_key',
  'paypal_email',
  'wise_email',
  'fullname',
  'billaddress_line1',
  'billaddress_line2',
  'billaddress_city',
  'billaddress_zip',
  'billaddress_country',
  'billaddress_taxinfo',
  'autobill_threshold',
  'phone_number',
];

export const BALANCE_THRESHOLD_MAX = 1_000_000_000;

/**
 * The change a settings body asks for, or why it cannot be made: balance_threshold a JSON
 * number from 0 to 1e9 with at most 2 decimals, balance_threshold_enabled a boolean; a key
 * the public client knows but this service keeps elsewhere (or not at all) is named, as is
 * any other key.
 */
export function userSettingsChange(
  body: Record<string, unknown>,
): { change: UserSettingsChange } | { problem: string } {
  const known = new Set(['balance_threshold', 'balance_threshold_enabled']);
  const unsupported = Object.keys(body).filter((key) => UNSUPPORTED_USER_SETTINGS.includes(key));
  if (unsupported.length > 0)
    return { problem: `not supported by this service: ${unsupported.sort().join(', ')}` };
  const unknown = Object.keys(body).filter((key) => !known.has(key));
  if (unknown.length > 0) return { problem: `unknown keys: ${unknown.sort().join(', ')}` };
  const change: UserSettingsChange = {};
  const threshold = body.balance_threshold;
  if (threshold !== undefined) {
    if (typeof threshold !== 'number' || !Number.isFinite(threshold))
      return { problem: 'balance_threshold must be a number' };
    if (threshold < 0 || threshold > BALANCE_THRESHOLD_MAX)
      return { problem: `balance_threshold must be from 0 to ${BALANCE_THRESHOLD_MAX}` };
    if (Math.round(threshold * 100) / 100 !== threshold)
      return { problem: 'balance_threshold must have at most 2 decimals' };
    change.balanceThreshold = threshold;
  }
  const enabled = body.balance_threshold_enabled;
  if (enabled !== undefined) {
    if (typeof enabled !== 'boolean')
      return { problem: 'balance_threshold_enabled must be a boolean' };
    change.balanceThresholdEnabled = enabled;
  }
  if (Object.keys(change).length === 0)
    return { problem: 'nothing to change: give balance_threshold or balance_threshold_enabled' };
  return { change };
}

export function isEmailVerified(user: User): boolean {
  return user.emailVerifiedAt !== null;
}
