import { RequestOrigin } from '@app/platform';
import { User } from '../../domain/user';

/**
 * A device the user asked to remember after a 2FA login stands in for the second factor
 * at a later password login from it. Implemented by the identity-tfa context, which owns
 * trusted devices; accounts only asks.
 */
export abstract class TrustedDeviceLogin {
  /**
   * True when `deviceToken` is an active trusted device of `user` (never another user's,
   * a revoked or an expired one); its use is recorded in the caller's unit of work, which
   * issues the session.
   */
  abstract accept(user: User, deviceToken: string, origin: RequestOrigin): Promise<boolean>;
}
