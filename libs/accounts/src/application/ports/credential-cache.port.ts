import { CredentialRecord } from '../../domain/credential';

/**
 * Recently verified API keys, so a request need not read its key back from the database
 * (docs/decisions.md "Credential cache"). Only API keys are kept: sessions are read on
 * every request, so a logout or an expiry takes effect at once on every replica.
 */
export abstract class CredentialCache {
  /** A counter that moves on every invalidation; `remember` compares against it. */
  abstract generation(): number;
  /** The cached record of a fingerprint, when fresh and while invalidations can be heard. */
  abstract recall(fingerprint: string): CredentialRecord | undefined;
  /**
   * Keeps `record` unless an invalidation happened since `generation` was read before the
   * lookup began: a record read before a change must not outlive the change.
   */
  abstract remember(fingerprint: string, record: CredentialRecord, generation: number): void;
  /** The user's keys changed (owner, admin flag): forget them here now, everywhere after commit. */
  abstract userChanged(userId: number): void;
  /** Any key may have changed (a key string given to another owner): forget everything. */
  abstract allChanged(): void;
}
