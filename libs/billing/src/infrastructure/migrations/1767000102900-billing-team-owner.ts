import { MigrationInterface, QueryRunner } from 'typeorm';

const WALK_INCLUDE = `id, first_charge_day, last_charge_day, category, created_xid, charge_days_gapped`;

/**
 * Contracts owned by a team (docs/teams.md "Ownership", docs/billing.md "Owners"): a
 * contract made or held in a team's context carries the team (`team_id`) beside the member
 * (`user_id`), and everything the report, the export and the statement read is keyed by
 * the contract's **owner**, `owner_key`: the user's id for a personal contract, the team's
 * id negated for a team's (`-team_id`). One integer column, so every index and statement
 * keeps its shape and a team's report costs what a user's does.
 *
 *  - `billing_contracts.owner_key` is generated from `user_id` and `team_id`, so it can
 *    never disagree with them; the walk indexes lead with it instead of `user_id`.
 *  - The summaries (`billing_report_days`, `billing_statement_days`) were keyed by user:
 *    their `user_id` becomes `owner_key`. Every existing row is personal, so its value is
 *    already the owner's key: a rename, no rewrite. They lose their foreign key to users
 *    (a key may now be a team's); a trigger on users and teams removes an owner's rows
 *    when the owner goes, as the cascade did.
 *  - A team's contract refers to the team without cascading, so a team is not destroyed
 *    under its billing history.
 *
 * Existing contracts are personal (no team): every route, answer and page token stays as
 * it was, since a personal owner key is the user id a token's digest already holds.
 */
export class BillingTeamOwner1767000102900 implements MigrationInterface {
  name = 'BillingTeamOwner1767000102900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `ALTER TABLE billing_contracts ADD COLUMN team_id integer REFERENCES teams (id) ON DELETE RESTRICT`,
    );
    await runner.query(`
      ALTER TABLE billing_contracts ADD COLUMN owner_key integer NOT NULL
        GENERATED ALWAYS AS (CASE WHEN team_id IS NULL THEN user_id ELSE -team_id END) STORED`);
    for (const index of [
      'walk_end',
      'walk_start',
      'group_end',
      'group_start',
      'user_xid',
      'gapped',
    ]) {
      await runner.query(`DROP INDEX billing_contracts_${index}_idx`);
    }
    await this.createOwnerIndexes(runner, 'owner_key');
    // The foreign keys' own lookups (a user or a team deleted).
    await runner.query(`CREATE INDEX billing_contracts_user_idx ON billing_contracts (user_id)`);
    await runner.query(
      `CREATE INDEX billing_contracts_team_idx ON billing_contracts (team_id) WHERE team_id IS NOT NULL`,
    );

    for (const table of ['billing_report_days', 'billing_statement_days']) {
      await runner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_id_fkey`);
      await runner.query(`ALTER TABLE ${table} RENAME COLUMN user_id TO owner_key`);
    }
    await runner.query(`
      CREATE FUNCTION billing_forget_owner() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        owner integer := CASE WHEN TG_TABLE_NAME = 'teams' THEN -OLD.id ELSE OLD.id END;
      BEGIN
        DELETE FROM billing_report_days WHERE owner_key = owner;
        DELETE FROM billing_statement_days WHERE owner_key = owner;
        RETURN NULL;
      END $$`);
    for (const table of ['users', 'teams']) {
      await runner.query(`
        CREATE TRIGGER billing_forget_owner AFTER DELETE ON ${table}
          FOR EACH ROW EXECUTE FUNCTION billing_forget_owner()`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    // A team's contracts had no place before: they would go back to the members who made
    // them, whose summaries would then need a rebuild, so the way down refuses while any exists.
    const held = await runner.query(
      `SELECT 1 FROM billing_contracts WHERE team_id IS NOT NULL LIMIT 1`,
    );
    if (held.length > 0)
      throw new Error('Contracts owned by teams exist: the way down would misattribute them.');
    for (const table of ['users', 'teams']) {
      await runner.query(`DROP TRIGGER billing_forget_owner ON ${table}`);
    }
    await runner.query(`DROP FUNCTION billing_forget_owner()`);
    for (const table of ['billing_report_days', 'billing_statement_days']) {
      await runner.query(`DELETE FROM ${table} WHERE owner_key < 0`);
      await runner.query(`ALTER TABLE ${table} RENAME COLUMN owner_key TO user_id`);
      await runner.query(`
        ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_id_fkey
          FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE`);
    }
    await runner.query(`DROP INDEX billing_contracts_user_idx`);
    await runner.query(`DROP INDEX billing_contracts_team_idx`);
    for (const index of [
      'walk_end',
      'walk_start',
      'group_end',
      'group_start',
      'user_xid',
      'gapped',
    ]) {
      await runner.query(`DROP INDEX billing_contracts_${index}_idx`);
    }
    await runner.query(`ALTER TABLE billing_contracts DROP COLUMN owner_key, DROP COLUMN team_id`);
    await this.createOwnerIndexes(runner, 'user_id');
  }

  /** The walk indexes of 1767000100001, led by `key`. */
  private async createOwnerIndexes(
    runner: QueryRunner,
    key: 'owner_key' | 'user_id',
  ): Promise<void> {
    await runner.query(`
      CREATE INDEX billing_contracts_walk_end_idx
        ON billing_contracts (${key}, end_ts DESC, source) INCLUDE (${WALK_INCLUDE})`);
    await runner.query(`
      CREATE INDEX billing_contracts_walk_start_idx
        ON billing_contracts (${key}, start_ts, source) INCLUDE (${WALK_INCLUDE})`);
    await runner.query(`
      CREATE INDEX billing_contracts_group_end_idx
        ON billing_contracts (${key}, group_key, end_ts DESC) INCLUDE (${WALK_INCLUDE})
        WHERE group_key IS NOT NULL`);
    await runner.query(`
      CREATE INDEX billing_contracts_group_start_idx
        ON billing_contracts (${key}, group_key, start_ts) INCLUDE (${WALK_INCLUDE})
        WHERE group_key IS NOT NULL`);
    // The newest contract of an owner, which bounds a walk's snapshot.
    await runner.query(
      `CREATE INDEX billing_contracts_user_xid_idx ON billing_contracts (${key}, created_xid)`,
    );
    await runner.query(`
      CREATE INDEX billing_contracts_gapped_idx
        ON billing_contracts (${key}) INCLUDE (${WALK_INCLUDE}, group_key)
        WHERE charge_days_gapped`);
  }
}
