import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  CredentialUse,
  CredentialUseRepository,
} from '../../application/ports/credential-use.repository.port';

/**
 * One UPDATE per kind for a whole batch, rows in id order (so two replicas' batches lock
 * shared rows in the same order); a time only ever moves forward.
 */
@Injectable()
export class PostgresCredentialUseRepository extends CredentialUseRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async record(uses: readonly CredentialUse[]): Promise<void> {
    const sorted = [...uses].sort((a, b) => a.id - b.id);
    const keys = sorted.filter((use) => use.kind === 'api_key');
    const sessions = sorted.filter((use) => use.kind === 'session');
    if (keys.length > 0) {
      await this.tx.rows(
        `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, u.at)
           FROM unnest($1::integer[], $2::timestamptz[]) AS u(id, at)
          WHERE k.id = u.id`,
        [keys.map((use) => use.id), keys.map((use) => use.at)],
      );
    }
    if (sessions.length > 0) {
      await this.tx.rows(
        `UPDATE sessions s
            SET last_used_at = GREATEST(s.last_used_at, u.at),
                last_address = CASE WHEN s.last_used_at IS NULL OR u.at >= s.last_used_at
                                    THEN u.address ELSE s.last_address END
           FROM unnest($1::integer[], $2::timestamptz[], $3::text[]) AS u(id, at, address)
          WHERE s.id = u.id`,
        [
          sessions.map((use) => use.id),
          sessions.map((use) => use.at),
          sessions.map((use) => use.address),
        ],
      );
    }
  }
}
