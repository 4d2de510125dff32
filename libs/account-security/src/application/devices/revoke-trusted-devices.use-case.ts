import { Injectable } from '@nestjs/common';
import { DeviceRevoker, TrustedDeviceRevocation } from '@app/accounts';
import { RequestOrigin, UnitOfWork } from '@app/platform';
import { DeviceTrust } from './device-trust.service';
import { UserSecurityLock } from '../ports/user-security-lock.port';

/**
 * Accounts' TrustedDeviceRevocation port (so its one operation carries the port's name):
 * the operator's `user:revoke-sessions` and the user's "sign out everywhere" end every
 * trusted device too. Under the user's lock (the one a trusted-device login decides
 * under), recording device_revoked with who asked as its cause, in the caller's unit of
 * work.
 */
@Injectable()
export class RevokeTrustedDevicesUseCase extends TrustedDeviceRevocation {
  constructor(
    private readonly trust: DeviceTrust,
    private readonly lock: UserSecurityLock,
    private readonly uow: UnitOfWork,
  ) {
    super();
  }

  revokeAll(userId: number, by: DeviceRevoker, origin: RequestOrigin): Promise<number> {
    return this.uow.run(async () => {
      await this.lock.lock(userId);
      return this.trust.revokeAll(userId, by, origin);
    });
  }
}
