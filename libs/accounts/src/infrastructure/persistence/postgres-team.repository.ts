import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { TeamRepository } from '../../application/ports/team.repository.port';
import { DEFAULT_TEAM_ROLES, OWNER_ROLE } from '../../domain/team';

@Injectable()
export class PostgresTeamRepository extends TeamRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async upsert(team: { id: number; name: string }): Promise<void> {
    await this.tx.rows(
      `INSERT INTO teams (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`,
      [team.id, team.name],
    );
  }

  async create(name: string): Promise<number> {
    const rows = await this.tx.rows<{ id: number }>(
      `INSERT INTO teams (name) VALUES ($1) RETURNING id`,
      [name],
    );
    return rows[0].id;
  }

  async addMember(teamId: number, userId: number): Promise<void> {
    await this.tx.rows(
      `INSERT INTO team_members (team_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [teamId, userId],
    );
  }

  async giveOwnerRole(teamId: number, userId: number): Promise<void> {
    await this.tx.rows(
      `INSERT INTO team_roles (team_id, name, permissions, is_default)
       SELECT $1, r.name, r.permissions, true
         FROM jsonb_to_recordset($2::jsonb) AS r (name text, permissions jsonb)
       ON CONFLICT (team_id, lower(name)) DO NOTHING`,
      [teamId, JSON.stringify(DEFAULT_TEAM_ROLES)],
    );
    await this.tx.rows(
      `UPDATE team_members m SET role_id = r.id FROM team_roles r
        WHERE m.team_id = $1 AND m.user_id = $2 AND r.team_id = $1 AND r.name = $3`,
      [teamId, userId, OWNER_ROLE],
    );
  }

  async isMember(teamId: number, userId: number): Promise<boolean> {
    const rows = await this.tx.rows(
      `SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2`,
      [teamId, userId],
    );
    return rows.length > 0;
  }
}
