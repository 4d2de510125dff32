import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint group made in a team's context belongs to the team (docs/teams.md
 * "Ownership"): `team_id` set, `user_id` the member who made it. Existing groups are
 * personal (no team), as they were.
 */
export class AutoscalingTeamOwner1767000402900 implements MigrationInterface {
  name = 'AutoscalingTeamOwner1767000402900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE endpoint_groups ADD COLUMN team_id integer REFERENCES teams (id) ON DELETE RESTRICT`,
    );
    await runner.query(`CREATE INDEX endpoint_groups_team_idx ON endpoint_groups (team_id) WHERE team_id IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE endpoint_groups DROP COLUMN team_id`);
  }
}
