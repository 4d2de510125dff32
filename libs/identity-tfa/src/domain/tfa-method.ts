export type TfaMethodType = 'sms' | 'totp';
export type VerificationChannel = 'sms' | 'totp' | 'email';

export const METHOD_TYPES: readonly TfaMethodType[] = ['sms', 'totp'];
export const VERIFICATION_CHANNELS: readonly VerificationChannel[] = ['sms', 'totp', 'email'];

/** A persistent second factor of a user (email is never one). */
export interface TfaMethod {
  id: number;
  userId: number;
  type: TfaMethodType;
  label: string;
  /** E.164, SMS methods only. */
  phoneNumber: string | null;
  /** AES-256-GCM ciphertext of the base32 secret (key version inside), TOTP only. */
  totpSecretCiphertext: string | null;
  isPrimary: boolean;
  /** Last accepted TOTP time step: codes at or below it are replays (RFC 6238 §5.2). */
  lastTotpStep: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Only the last 4 digits stay visible. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return null;
  const visible = phone.slice(-4);
  return `${'*'.repeat(Math.max(phone.length - 4, 0))}${visible}`;
}

export function totpSecretAad(methodId: number): string {
  return `tfa-method:${methodId}:totp-secret`;
}

export function defaultLabel(type: TfaMethodType, phone: string | null): string {
  return type === 'sms' ? `SMS ${phone ? phone.slice(-4) : ''}`.trim() : 'Authenticator app';
}

const epochSeconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/** Rounded up: a client never sees a lock end earlier than the real one. */
export const lockEndSeconds = (ms: number | null) => (ms === null ? null : Math.ceil(ms / 1000));

/**
 * The spec's "2FA method record": masked phone, never the TOTP secret, epoch seconds.
 * `failures` is the method's channel as the failure ledger sees it now.
 */
export function toMethodRecord(
  method: TfaMethod,
  failures: { failCount: number; lockedUntilMs: number | null },
): Record<string, unknown> {
  return {
    id: method.id,
    user_id: method.userId,
    method: method.type,
    label: method.label,
    phone_number: method.type === 'sms' ? maskPhone(method.phoneNumber) : null,
    is_primary: method.isPrimary,
    fail_count: failures.failCount,
    locked_until: lockEndSeconds(failures.lockedUntilMs),
    created_at: epochSeconds(method.createdAt),
    last_used: epochSeconds(method.lastUsedAt),
  };
}
