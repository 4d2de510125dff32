import { SecondFactorMethod } from '../application/ports/login-second-factor.port';

/** The "2FA method record" (docs/identity-tfa.md): epoch seconds, the phone masked, never a TOTP secret. */
export interface SecondFactorMethodRecord {
  id: number;
  user_id: number;
  method: 'sms' | 'totp';
  label: string;
  phone_number: string | null;
  is_primary: boolean;
  fail_count: number;
  locked_until: number | null;
  created_at: number;
  last_used: number | null;
}

/**
 * The one wire form of a 2FA method: the password login offers it and the 2FA routes
 * (identity-tfa's http/) answer it, so both take it from here.
 */
export function presentSecondFactorMethod(method: SecondFactorMethod): SecondFactorMethodRecord {
  return {
    id: method.id,
    user_id: method.userId,
    method: method.type,
    label: method.label,
    phone_number: method.maskedPhoneNumber,
    is_primary: method.isPrimary,
    fail_count: method.failCount,
    locked_until: method.lockedUntilSeconds,
    created_at: epochSeconds(method.createdAt),
    last_used: method.lastUsedAt ? epochSeconds(method.lastUsedAt) : null,
  };
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
