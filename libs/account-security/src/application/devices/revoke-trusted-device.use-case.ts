import { Injectable } from '@nestjs/common';
import { Clock, RequestOrigin, UnitOfWork } from '@app/platform';
import { ACCOUNT_SECURITY_ERROR_MESSAGES } from '../../domain/error-messages';
import { AccountSecurityError } from '../../domain/errors';
import { DeviceTrust } from './device-trust.service';
import { TrustedDeviceRepository } from '../ports/trusted-device.repository.port';
import { AccountLookup } from '../account-lookup.service';

export interface RevokeTrustedDeviceCommand {
  userId: number;
  deviceId: number;
  origin: RequestOrigin;
}

/**
 * DELETE tfa/devices/{id}/: one of the caller's active devices stops skipping the second
 * factor (device_revoked). Unknown, another user's and already revoked ids answer the same
 * not_found, so the ids of others are never confirmed.
 */
@Injectable()
export class RevokeTrustedDeviceUseCase {
  constructor(
    private readonly lookup: AccountLookup,
    private readonly devices: TrustedDeviceRepository,
    private readonly trust: DeviceTrust,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: RevokeTrustedDeviceCommand): Promise<void> {
    const user = await this.lookup.user(command.userId);
    await this.uow.run(async () => {
      if (!(await this.devices.revoke(user.id, command.deviceId, this.clock.now())))
        throw new AccountSecurityError(
          'not_found',
          ACCOUNT_SECURITY_ERROR_MESSAGES.noSuchDevice(command.deviceId),
        );
      await this.trust.revoked(user.id, 1, 'user', command.origin, command.deviceId);
    });
  }
}
