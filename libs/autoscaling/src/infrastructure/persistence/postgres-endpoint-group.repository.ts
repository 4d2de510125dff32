import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  EndpointGroupRepository,
  NewEndpointGroup,
  StoredEndpointGroup,
} from '../../application/ports/endpoint-group.repository.port';
import { EndpointGroupOptions, EndpointState, MAX_GROUP_ID } from '../../domain/endpoint-group';
import {
  ENDPOINT_GROUP_COLUMNS,
  EndpointGroupRow,
  insertParams,
  optionParams,
  toStoredEndpointGroup,
} from './endpoint-group.mapper';

const INSERT = `INSERT INTO endpoint_groups
  (id, user_id, endpoint_state, api_key_ciphertext, created_at, updated_at,
   endpoint_name, min_load, min_cold_load, target_util, cold_mult, cold_workers, max_workers,
   max_queue_time, target_queue_time, inactivity_timeout, team_id)
  VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`;

/** The groups the caller's context owns ($1 the user, $2 the team or null): docs/teams.md. */
const OWNED = `(($2::integer IS NULL AND team_id IS NULL AND user_id = $1) OR team_id = $2::integer)`;

/** An id the integer column cannot hold names no group; asking PostgreSQL would be an error. */
function storable(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_GROUP_ID;
}

@Injectable()
export class PostgresEndpointGroupRepository extends EndpointGroupRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async nextId(): Promise<number> {
    const [row] = await this.tx.rows<{ id: string }>(
      `SELECT nextval(pg_get_serial_sequence('endpoint_groups', 'id')) AS id`,
    );
    return Number(row.id);
  }

  async insert(group: NewEndpointGroup): Promise<void> {
    await this.tx.rows(INSERT, insertParams(group));
  }

  async listByUser(userId: number, teamId: number | null = null): Promise<StoredEndpointGroup[]> {
    const rows = await this.tx.rows<EndpointGroupRow>(
      `SELECT ${ENDPOINT_GROUP_COLUMNS} FROM endpoint_groups WHERE ${OWNED} ORDER BY id`,
      [userId, teamId],
    );
    return rows.map(toStoredEndpointGroup);
  }

  async findOwnedForUpdate(
    id: number,
    userId: number,
    teamId: number | null = null,
  ): Promise<StoredEndpointGroup | null> {
    if (!storable(id)) return null;
    const rows = await this.tx.rows<EndpointGroupRow>(
      `SELECT ${ENDPOINT_GROUP_COLUMNS} FROM endpoint_groups
        WHERE id = $3 AND ${OWNED} FOR UPDATE`,
      [userId, teamId, id],
    );
    return rows[0] ? toStoredEndpointGroup(rows[0]) : null;
  }

  async findById(id: number): Promise<StoredEndpointGroup | null> {
    if (!storable(id)) return null;
    const rows = await this.tx.rows<EndpointGroupRow>(
      `SELECT ${ENDPOINT_GROUP_COLUMNS} FROM endpoint_groups WHERE id = $1`,
      [id],
    );
    return rows[0] ? toStoredEndpointGroup(rows[0]) : null;
  }

  async update(
    id: number,
    changes: { options: EndpointGroupOptions; state: EndpointState; updatedAt: Date },
  ): Promise<void> {
    await this.tx.rows(
      `UPDATE endpoint_groups SET
         endpoint_state = $2, updated_at = $3,
         endpoint_name = $4, min_load = $5, min_cold_load = $6, target_util = $7,
         cold_mult = $8, cold_workers = $9, max_workers = $10, max_queue_time = $11,
         target_queue_time = $12, inactivity_timeout = $13
       WHERE id = $1`,
      [id, changes.state, changes.updatedAt, ...optionParams(changes.options)],
    );
  }

  async deleteOwned(id: number, userId: number, teamId: number | null = null): Promise<boolean> {
    if (!storable(id)) return false;
    const rows = await this.tx.rows<{ id: number }>(
      `DELETE FROM endpoint_groups WHERE id = $3 AND ${OWNED} RETURNING id`,
      [userId, teamId, id],
    );
    return rows.length === 1;
  }

  async upsert(group: NewEndpointGroup): Promise<void> {
    await this.tx.rows(
      `${INSERT}
       ON CONFLICT (id) DO UPDATE SET
         user_id = EXCLUDED.user_id, team_id = EXCLUDED.team_id, endpoint_state = EXCLUDED.endpoint_state,
         api_key_ciphertext = EXCLUDED.api_key_ciphertext, updated_at = now(),
         endpoint_name = EXCLUDED.endpoint_name, min_load = EXCLUDED.min_load,
         min_cold_load = EXCLUDED.min_cold_load, target_util = EXCLUDED.target_util,
         cold_mult = EXCLUDED.cold_mult, cold_workers = EXCLUDED.cold_workers,
         max_workers = EXCLUDED.max_workers, max_queue_time = EXCLUDED.max_queue_time,
         target_queue_time = EXCLUDED.target_queue_time,
         inactivity_timeout = EXCLUDED.inactivity_timeout`,
      insertParams(group),
    );
  }
}
