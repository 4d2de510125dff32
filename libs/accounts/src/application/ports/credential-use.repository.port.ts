import { CredentialKind } from '../../domain/credential';

/** A credential's latest use noted in memory, on its way to the database. */
export interface CredentialUse {
  kind: CredentialKind;
  id: number;
  at: Date;
  address: string | null;
}

/** Writes the "last used" of keys and sessions, many at once. */
export abstract class CredentialUseRepository {
  /** Moves each credential's last use forward (never back) to the one given. */
  abstract record(uses: readonly CredentialUse[]): Promise<void>;
}
