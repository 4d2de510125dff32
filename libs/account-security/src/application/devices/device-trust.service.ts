import { Injectable } from '@nestjs/common';
import { Clock, RandomSource, RequestOrigin, SecretKeeper, UnitOfWork } from '@app/platform';
import { DeviceRevocationCause } from '../../domain/security-event';
import { AccountSecuritySettings } from '../../domain/account-security-settings';
import {
  DEVICE_TOKEN_PURPOSE,
  TRUSTED_DEVICE_POLICY,
  TrustedDevice,
} from '../../domain/trusted-device';
import { TrustedDeviceRepository } from '../ports/trusted-device.repository.port';
import { SecurityEventLog } from '../events/security-event-log.service';

/** A device just trusted: the token goes into its cookie and is never seen again. */
export interface IssuedDevice {
  device: TrustedDevice;
  token: string;
}

/**
 * Trusting devices and taking the trust back (docs/identity-tfa.md "Trusted devices").
 * Each operation joins the caller's unit of work and records its events there.
 */
@Injectable()
export class DeviceTrust {
  constructor(
    private readonly devices: TrustedDeviceRepository,
    private readonly events: SecurityEventLog,
    private readonly secrets: SecretKeeper,
    private readonly random: RandomSource,
    private readonly settings: AccountSecuritySettings,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Remembers the device that just completed a 2FA login: 256 random bits, stored only as
   * a keyed fingerprint (each SECRET_HMAC_KEY version finds it, like API keys). Beyond
   * the limit of active devices, the oldest are revoked.
   */
  async trust(userId: number, origin: RequestOrigin): Promise<IssuedDevice> {
    const token = `${TRUSTED_DEVICE_POLICY.tokenPrefix}${this.random.token(TRUSTED_DEVICE_POLICY.tokenBits)}`;
    const now = this.clock.now();
    const days = this.settings.trustedDeviceDays;
    return this.uow.run(async () => {
      const device = await this.devices.create({
        userId,
        tokenFingerprint: this.secrets.fingerprint(DEVICE_TOKEN_PURPOSE, token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + days * 24 * 3600 * 1000),
        userAgent: origin.userAgent,
        clientAddress: origin.address,
      });
      await this.events.record({
        userId,
        kind: 'device_trusted',
        method: null,
        details: { device_id: device.id, days },
        origin,
      });
      const evicted = await this.devices.revokeBeyond(
        userId,
        TRUSTED_DEVICE_POLICY.maxActivePerUser,
        now,
      );
      await this.revoked(userId, evicted, 'limit', origin);
      return { device, token };
    });
  }

  /** The active device of `userId` whose token this is; another user's is never found. */
  find(userId: number, token: string): Promise<TrustedDevice | null> {
    const fingerprints = this.secrets.fingerprints(DEVICE_TOKEN_PURPOSE, token);
    return this.devices.findActive(userId, fingerprints, this.clock.now());
  }

  /** Revokes every active device of the user (a 2FA change, an admin reset); how many. */
  async revokeAll(
    userId: number,
    cause: DeviceRevocationCause,
    origin: RequestOrigin,
  ): Promise<number> {
    return this.uow.run(async () => {
      const count = await this.devices.revokeAll(userId, this.clock.now());
      await this.revoked(userId, count, cause, origin);
      return count;
    });
  }

  /** device_revoked, when any device was (nothing is recorded for none). */
  async revoked(
    userId: number,
    devices: number,
    cause: DeviceRevocationCause,
    origin: RequestOrigin,
    deviceId?: number,
  ): Promise<void> {
    if (devices === 0) return;
    await this.events.record({
      userId,
      kind: 'device_revoked',
      method: null,
      details: { devices, cause, ...(deviceId !== undefined ? { device_id: deviceId } : {}) },
      origin,
    });
  }
}
