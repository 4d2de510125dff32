import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A volume listing held in a team's context belongs to the team (docs/teams.md
 * "Ownership"): `team_id` set, `owner_id` the member who holds it for the team. Existing
 * listings are personal (no team), as they were.
 */
export class MarketplaceVolumesTeamOwner1767000302900 implements MigrationInterface {
  name = 'MarketplaceVolumesTeamOwner1767000302900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE volume_listings ADD COLUMN team_id integer REFERENCES teams (id) ON DELETE RESTRICT`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE volume_listings DROP COLUMN team_id`);
  }
}
