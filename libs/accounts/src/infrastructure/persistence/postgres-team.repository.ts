import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { TeamRepository } from '../../application/ports/credential.repository.port';

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

  async isMember(teamId: number, userId: number): Promise<boolean> {
    const rows = await this.tx.rows(
      `SELECT 1 FROM team_members WHERE team_id = $1 AND user_id = $2`,
      [teamId, userId],
    );
    return rows.length > 0;
  }
}
