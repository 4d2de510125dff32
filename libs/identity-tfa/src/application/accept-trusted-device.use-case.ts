import { Injectable } from '@nestjs/common';
import { TrustedDeviceLogin, User } from '@app/accounts';
import { Clock, RequestOrigin, UnitOfWork } from '@app/platform';
import { isDeviceTokenShape } from '../domain/trusted-device';
import { DeviceTrust } from './device-trust.service';
import { TrustedDeviceRepository } from './ports/trusted-device.repository.port';
import { SecurityEventLog } from './security-event-log.service';

/**
 * The password login's trusted-device check, accounts' TrustedDeviceLogin port (so its
 * one operation carries the port's name): the token must be an active device of this very
 * user. A match records its use and a login event (trusted_device: true) in the caller's
 * unit of work, which issues the session.
 */
@Injectable()
export class AcceptTrustedDeviceUseCase extends TrustedDeviceLogin {
  constructor(
    private readonly trust: DeviceTrust,
    private readonly devices: TrustedDeviceRepository,
    private readonly events: SecurityEventLog,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {
    super();
  }

  async accept(user: User, deviceToken: string, origin: RequestOrigin): Promise<boolean> {
    if (user.tfaStatus === 'disabled' || !isDeviceTokenShape(deviceToken)) return false;
    const device = await this.trust.find(user.id, deviceToken);
    if (!device) return false;
    await this.uow.run(async () => {
      await this.devices.recordUse(device.id, this.clock.now());
      await this.events.record({
        userId: user.id,
        kind: 'login',
        method: null,
        details: { trusted_device: true, device_id: device.id },
        origin,
      });
    });
    return true;
  }
}
