import { RequestOrigin } from '@app/platform';
import { User } from '../../domain/user';

/**
 * A device the user asked to remember after a 2FA login stands in for the second factor
 * at a later password login from it, and gives that login a budget of its own against
 * guessing (docs/decisions.md "Password login"). Implemented by the identity-tfa context,
 * which owns trusted devices; accounts only asks.
 */
export abstract class TrustedDeviceLogin {
  /**
   * The id of the active trusted device of `user` that `deviceToken` is (never another
   * user's, a revoked or an expired one), or null. Looks only: nothing is recorded, nothing
   * is granted; the password login counts the attempt on that device's budget.
   */
  abstract recognise(user: User, deviceToken: string): Promise<number | null>;
  /**
   * True when `deviceToken` is an active trusted device of `user`, checked under the lock
   * the revocation of devices takes (so a device revoked by a 2FA change never issues a
   * session afterwards); its use is recorded in the caller's unit of work, which issues the
   * session.
   */
  abstract accept(user: User, deviceToken: string, origin: RequestOrigin): Promise<boolean>;
}
