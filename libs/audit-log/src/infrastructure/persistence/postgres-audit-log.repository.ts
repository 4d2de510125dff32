import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { AuditLogRepository } from '../../application/ports/audit-log.repository.port';
import { AuditArgs, AuditEntry, NewAuditEntry } from '../../domain/audit-entry';

interface AuditRow {
  id: string;
  user_id: number;
  team_id: number | null;
  credential_kind: 'api_key' | 'session';
  credential_id: number;
  client_address: string | null;
  method: string;
  route: string;
  route_name: string;
  args: AuditArgs;
  created_at: Date;
}

@Injectable()
export class PostgresAuditLogRepository extends AuditLogRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async append(entry: NewAuditEntry): Promise<void> {
    await this.tx.rows(
      `INSERT INTO audit_logs (user_id, team_id, credential_kind, credential_id, client_address,
                               method, route, route_name, args, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        entry.userId,
        entry.teamId,
        entry.credentialKind,
        entry.credentialId,
        entry.address,
        entry.method,
        entry.route,
        entry.routeName,
        JSON.stringify(entry.args),
        entry.occurredAt,
      ],
      { prepare: true },
    );
  }

  /** One INSERT for the whole batch: its columns as arrays, unnested in order. */
  async appendMany(entries: readonly NewAuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const column = <T>(pick: (entry: NewAuditEntry) => T) => entries.map(pick);
    await this.tx.rows(
      `INSERT INTO audit_logs (user_id, team_id, credential_kind, credential_id, client_address,
                               method, route, route_name, args, created_at)
       SELECT user_id, team_id, credential_kind, credential_id, client_address,
              method, route, route_name, args, created_at
         FROM unnest($1::integer[], $2::integer[], $3::text[], $4::integer[], $5::text[],
                     $6::text[], $7::text[], $8::text[], $9::jsonb[], $10::timestamptz[])
              WITH ORDINALITY AS e(user_id, team_id, credential_kind, credential_id,
                                   client_address, method, route, route_name, args, created_at, n)
        ORDER BY n`,
      [
        column((entry) => entry.userId),
        column((entry) => entry.teamId),
        column((entry) => entry.credentialKind),
        column((entry) => entry.credentialId),
        column((entry) => entry.address),
        column((entry) => entry.method),
        column((entry) => entry.route),
        column((entry) => entry.routeName),
        column((entry) => JSON.stringify(entry.args)),
        column((entry) => entry.occurredAt),
      ],
    );
  }

  async listPage(
    userId: number,
    teamId: number | null,
    limit: number,
    beforeId: number | null,
  ): Promise<AuditEntry[]> {
    const rows = await this.tx.rows<AuditRow>(
      `SELECT id, user_id, team_id, credential_kind, credential_id, client_address, method,
              route, route_name, args, created_at
         FROM audit_logs
        WHERE user_id = $1 AND team_id IS NOT DISTINCT FROM $2
          AND ($3::bigint IS NULL OR id < $3)
        ORDER BY id DESC
        LIMIT $4`,
      [userId, teamId, beforeId, limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      userId: row.user_id,
      teamId: row.team_id,
      credentialKind: row.credential_kind,
      credentialId: row.credential_id,
      address: row.client_address,
      method: row.method,
      route: row.route,
      routeName: row.route_name,
      args: row.args,
      occurredAt: row.created_at,
    }));
  }

  async pruneBatch(before: Date, batch: number): Promise<number> {
    const rows = await this.tx.rows<{ id: string }>(
      `DELETE FROM audit_logs
        WHERE id IN (SELECT id FROM audit_logs WHERE created_at < $1 ORDER BY id LIMIT $2)
        RETURNING id`,
      [before, batch],
    );
    return rows.length;
  }
}
