/**
 * A browser the user asked to remember after a logged-out 2FA login: for its lifetime, a
 * password login from it answers as if the second factor were given (docs/identity-tfa.md
 * "Trusted devices"). Only a keyed fingerprint of its token is ever stored.
 */
export interface TrustedDevice {
  id: number;
  userId: number;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
  userAgent: string | null;
  clientAddress: string | null;
  revokedAt: Date | null;
}

export const TRUSTED_DEVICE_POLICY = {
  /** Trusting one more revokes the oldest active one. */
  maxActivePerUser: 20,
  tokenBits: 256,
  tokenPrefix: 'gmd_',
} as const;

/** The SecretKeeper purpose of device token fingerprints. */
export const DEVICE_TOKEN_PURPOSE = 'trusted-device';

/** 256 bits in base 62 are 43 characters (docs/decisions.md "Secrets people paste"). */
const DEVICE_TOKEN = /^gmd_[0-9A-Za-z]{43}$/;

/** A value that can be a device token; anything else is not looked up at all. */
export function isDeviceTokenShape(value: string): boolean {
  return DEVICE_TOKEN.test(value);
}

/** Active: neither revoked nor expired at `now`. */
export function isActiveDevice(device: TrustedDevice, now: Date): boolean {
  return device.revokedAt === null && device.expiresAt.getTime() > now.getTime();
}

/** Seconds from trust to expiry: the cookie's Max-Age. */
export function deviceLifetimeSeconds(device: TrustedDevice): number {
  return Math.round((device.expiresAt.getTime() - device.createdAt.getTime()) / 1000);
}
