import { RequestOrigin } from '@app/platform';
import { TrustedDeviceLogin } from '../application/ports/trusted-device-login.port';
import { User } from '../domain/user';

/** Accepts the tokens it was given for a user, and records every check. */
export class RecordingTrustedDeviceLogin extends TrustedDeviceLogin {
  readonly checks: Array<{ userId: number; token: string; origin: RequestOrigin }> = [];

  constructor(private readonly accepted: Map<string, number> = new Map()) {
    super();
  }

  /** `token` stands for a trusted device of `userId`. */
  trust(token: string, userId: number): void {
    this.accepted.set(token, userId);
  }

  /** Device ids are the position of the token in the order the tokens were trusted. */
  async recognise(user: User, deviceToken: string): Promise<number | null> {
    if (this.accepted.get(deviceToken) !== user.id) return null;
    return [...this.accepted.keys()].indexOf(deviceToken) + 1;
  }

  async accept(user: User, deviceToken: string, origin: RequestOrigin): Promise<boolean> {
    this.checks.push({ userId: user.id, token: deviceToken, origin });
    return this.accepted.get(deviceToken) === user.id;
  }
}
