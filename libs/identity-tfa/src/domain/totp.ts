import { authenticator } from 'otplib';
import { TFA_POLICY } from './tfa-policy';

/** RFC 6238 with the authenticator-app defaults: SHA1, 6 digits, 30-second steps. */
const STEP = TFA_POLICY.totpStepSeconds;

export function totpStepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / STEP);
}

export function totpCodeForStep(base32Secret: string, step: number): string {
  return authenticator
    .clone({ epoch: step * STEP * 1000, step: STEP, digits: TFA_POLICY.codeDigits, window: 0 })
    .generate(base32Secret);
}

/**
 * The time step a code belongs to, accepting the previous and the current step (clock
 * drift and typing time); null when it matches neither. Both steps are always computed
 * and compared with `equal`, so timing does not reveal which one matched.
 */
export function matchTotpStep(
  base32Secret: string,
  code: string,
  nowMs: number,
  equal: (a: string, b: string) => boolean,
): number | null {
  const current = totpStepAt(nowMs);
  let matched: number | null = null;
  for (const step of [current - 1, current]) {
    if (equal(totpCodeForStep(base32Secret, step), code)) matched = step;
  }
  return matched;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function encodeBase32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** A base32 TOTP secret of 80 to 320 bits (what authenticator apps accept). */
export function isValidTotpSecret(secret: string): boolean {
  return /^[A-Z2-7]{16,64}$/.test(secret);
}

export function provisioningUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TFA_POLICY.codeDigits),
    period: String(STEP),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
