import { RequestOrigin } from '@app/platform';
import {
  DeviceRevoker,
  TrustedDeviceRevocation,
} from '../application/ports/trusted-device-revocation.port';

/** Revokes a set number of devices per user (given by the test), and records each call. */
export class RecordingTrustedDeviceRevocation extends TrustedDeviceRevocation {
  readonly calls: Array<{ userId: number; by: DeviceRevoker; origin: RequestOrigin }> = [];
  readonly devices = new Map<number, number>();

  async revokeAll(userId: number, by: DeviceRevoker, origin: RequestOrigin): Promise<number> {
    this.calls.push({ userId, by, origin });
    const count = this.devices.get(userId) ?? 0;
    this.devices.delete(userId);
    return count;
  }
}
