import { Injectable } from '@nestjs/common';
import { TrustedDeviceLogin, User } from '@app/accounts';
import {
  Clock,
  PlatformConfig,
  RateLimiter,
  RequestOrigin,
  SECURITY_WRITES_BUCKET,
  UnitOfWork,
} from '@app/platform';
import { isDeviceTokenShape } from '../../domain/trusted-device';
import { DeviceTrust } from './device-trust.service';
import { TrustedDeviceRepository } from '../ports/trusted-device.repository.port';
import { UserSecurityLock } from '../ports/user-security-lock.port';
import { SecurityEventLog } from '../events/security-event-log.service';

/**
 * The password login's trusted-device check, accounts' TrustedDeviceLogin port (so its
 * operations carry the port's names): the token must be an active device of this very
 * user. `recognise` only looks (the login throttle counts the attempt on the device's own
 * budget); `accept` decides under the user's lock, the one every revocation of devices and
 * sessions holds (UserSecurityLock), and records its use and a login event
 * (trusted_device: true) in the caller's unit of work, which issues the session. So a
 * device login either commits before a 2FA change starts (and the change ends its session)
 * or sees the device revoked: no session outlives the change. Each device login writes a
 * login event, so it counts against the user's security-writes budget like the routes that
 * write events; past it, the device does not stand in (the login asks for the second factor,
 * which the owner still has): the owner is never locked out by it.
 */
@Injectable()
export class AcceptTrustedDeviceUseCase extends TrustedDeviceLogin {
  constructor(
    private readonly trust: DeviceTrust,
    private readonly devices: TrustedDeviceRepository,
    private readonly events: SecurityEventLog,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly lock: UserSecurityLock,
    private readonly limiter: RateLimiter,
    private readonly config: PlatformConfig,
  ) {
    super();
  }

  async recognise(user: User, deviceToken: string): Promise<number | null> {
    if (user.tfaStatus === 'disabled' || !isDeviceTokenShape(deviceToken)) return null;
    return (await this.trust.find(user.id, deviceToken))?.id ?? null;
  }

  async accept(user: User, deviceToken: string, origin: RequestOrigin): Promise<boolean> {
    if (user.tfaStatus === 'disabled' || !isDeviceTokenShape(deviceToken)) return false;
    return this.uow.run(async () => {
      await this.lock.lock(user.id);
      const device = await this.trust.find(user.id, deviceToken);
      if (!device || !(await this.withinWriteBudget(user.id))) return false;
      await this.devices.recordUse(device.id, this.clock.now());
      await this.events.record({
        userId: user.id,
        kind: 'login',
        method: null,
        details: { trusted_device: true, device_id: device.id },
        origin,
      });
      return true;
    });
  }

  /** Takes a place in the user's security-writes budget (not counted with rate limits off). */
  private async withinWriteBudget(userId: number): Promise<boolean> {
    const { enabled, windows } = this.config.rateLimits;
    const window = windows[SECURITY_WRITES_BUCKET];
    if (!enabled || !window) return true;
    const decision = await this.limiter.acquire(SECURITY_WRITES_BUCKET, `user:${userId}`, {
      limit: window.limit,
      windowSeconds: window.windowSeconds,
    });
    return decision.admitted;
  }
}
