import type { LegacySecondFactor, SecondFactorMethod } from '@app/accounts';
import { lockEndSeconds } from './verification-failures';

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
export function maskPhone(phone: string): string {
  const visible = phone.slice(-4);
  return `${'*'.repeat(Math.max(phone.length - 4, 0))}${visible}`;
}

export function totpSecretAad(methodId: number): string {
  return `tfa-method:${methodId}:totp-secret`;
}

export function defaultLabel(type: TfaMethodType, phone: string | null): string {
  return type === 'sms' ? `SMS ${phone ? phone.slice(-4) : ''}`.trim() : 'Authenticator app';
}

/**
 * The 2FA method record (docs/identity-tfa.md) in domain terms, as accounts' LoginSecondFactor port
 * declares it (the login offers it, the 2FA routes answer it): the phone masked, never the
 * TOTP secret. `failures` is the method's channel as the failure ledger sees it now.
 */
export function describeMethod(
  method: TfaMethod,
  failures: { failCount: number; lockedUntilMs: number | null },
): SecondFactorMethod {
  return {
    kind: 'method',
    id: method.id,
    userId: method.userId,
    type: method.type,
    label: method.label,
    maskedPhoneNumber:
      method.type === 'sms' && method.phoneNumber ? maskPhone(method.phoneNumber) : null,
    isPrimary: method.isPrimary,
    failCount: failures.failCount,
    lockedUntilSeconds: lockEndSeconds(failures.lockedUntilMs),
    createdAt: method.createdAt,
    lastUsedAt: method.lastUsedAt,
  };
}

/** A legacy account's SMS 2FA, offered by the login: the phone on the user record, no method row. */
export function describeLegacySms(phoneNumber: string): LegacySecondFactor {
  return { kind: 'legacy', type: 'sms', maskedPhoneNumber: maskPhone(phoneNumber) };
}
