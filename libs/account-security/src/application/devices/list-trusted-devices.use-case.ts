import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import { TrustedDevice } from '../../domain/trusted-device';
import { TrustedDeviceRepository } from '../ports/trusted-device.repository.port';
import { AccountLookup } from '../account-lookup.service';

/** GET tfa/devices/: the caller's active trusted devices, newest first. */
@Injectable()
export class ListTrustedDevicesUseCase {
  constructor(
    private readonly lookup: AccountLookup,
    private readonly devices: TrustedDeviceRepository,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number): Promise<TrustedDevice[]> {
    const user = await this.lookup.user(userId);
    return this.devices.listActive(user.id, this.clock.now());
  }
}
