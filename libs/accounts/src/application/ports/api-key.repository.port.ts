import type { PermissionDocumentJson } from '@app/platform';
import { ApiKey, KeyParamsJson } from '../../domain/api-key';

export interface NewManagedApiKey {
  userId: number;
  teamId: number | null;
  keyHash: string;
  keyPrefix: string;
  name: string | null;
  /** null: a full key. */
  permissions: PermissionDocumentJson | null;
  keyParams: KeyParamsJson | null;
  expiresAt: Date | null;
  /** The user's main key (it replaces the previous one as main). */
  main: boolean;
}

/**
 * The keys their owner manages (docs/access.md "Keys"). A deleted key is kept, stamped,
 * and found by nothing here nor by the Bearer lookup.
 */
export abstract class ApiKeyRepository {
  abstract insert(key: NewManagedApiKey): Promise<ApiKey>;
  /** The user's live key `keyId` in that context (team or personal), or null. */
  abstract findLive(userId: number, teamId: number | null, keyId: number): Promise<ApiKey | null>;
  /** The user's live keys in that context, oldest first. */
  abstract listLive(userId: number, teamId: number | null): Promise<ApiKey[]>;
  /**
   * Deletes the user's live key; false when it was not live. Cached copies of the user's
   * keys are forgotten here at once and on every replica once the change commits.
   */
  abstract delete(userId: number, keyId: number, at: Date): Promise<boolean>;
  /**
   * The user's live main key, with the user locked until the transaction ends, so two
   * rotations of one user take turns. Call inside a unit of work.
   */
  abstract lockMain(userId: number): Promise<ApiKey | null>;
}
