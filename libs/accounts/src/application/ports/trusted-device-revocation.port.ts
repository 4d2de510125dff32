import { RequestOrigin } from '@app/platform';

/** Who ended every session: the operator's revoke-sessions, or the user signing out everywhere. */
export type DeviceRevoker = 'operator' | 'user';

/**
 * Ends a user's trusted devices along with their sessions: "end every session" must also
 * end what lets a browser sign in again without the second factor. Implemented by the
 * identity-tfa context, which owns trusted devices; called inside the caller's unit of
 * work before the sessions are ended, under the lock a trusted-device login takes, so no
 * device login can add a session in between.
 */
export abstract class TrustedDeviceRevocation {
  /** Revokes every active trusted device of the user; how many. */
  abstract revokeAll(userId: number, by: DeviceRevoker, origin: RequestOrigin): Promise<number>;
}
