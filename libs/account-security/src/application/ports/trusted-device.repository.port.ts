import { TrustedDevice } from '../../domain/trusted-device';

export interface NewTrustedDevice {
  userId: number;
  tokenFingerprint: string;
  createdAt: Date;
  expiresAt: Date;
  userAgent: string | null;
  clientAddress: string | null;
}

/** Remembered devices; every method joins the caller's unit of work. */
export abstract class TrustedDeviceRepository {
  abstract create(device: NewTrustedDevice): Promise<TrustedDevice>;
  /**
   * The active device of `userId` stored under one of `fingerprints` (one per
   * SECRET_HMAC_KEY version); another user's device is never found.
   */
  abstract findActive(
    userId: number,
    fingerprints: string[],
    now: Date,
  ): Promise<TrustedDevice | null>;
  abstract recordUse(deviceId: number, now: Date): Promise<void>;
  /** The user's active devices, newest first. */
  abstract listActive(userId: number, now: Date): Promise<TrustedDevice[]>;
  /** Revokes one active device of the user; false when it is not one. */
  abstract revoke(userId: number, deviceId: number, now: Date): Promise<boolean>;
  /** Revokes every active device of the user; how many. */
  abstract revokeAll(userId: number, now: Date): Promise<number>;
  /** Revokes the oldest active devices beyond the newest `keep`; how many. */
  abstract revokeBeyond(userId: number, keep: number, now: Date): Promise<number>;
}
