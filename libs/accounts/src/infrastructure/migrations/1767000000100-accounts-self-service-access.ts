import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self-service access (docs/access.md): named, scoped, expiring API keys with a main key
 * per user, and the sessions' origin and last use. Existing keys keep working as full
 * keys; each user's oldest live personal key becomes their main key.
 */
export class AccountsSelfServiceAccess1767000000100 implements MigrationInterface {
  name = 'AccountsSelfServiceAccess1767000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE api_keys
        ADD COLUMN name text,
        ADD COLUMN permissions jsonb,
        ADD COLUMN key_params jsonb,
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN last_used_at timestamptz,
        ADD COLUMN is_main boolean NOT NULL DEFAULT false`);
    await runner.query(`
      UPDATE api_keys SET is_main = true
       WHERE id IN (SELECT DISTINCT ON (user_id) id FROM api_keys
                     WHERE team_id IS NULL AND revoked_at IS NULL
                     ORDER BY user_id, id)`);
    // One live main key per user: a rotation replaces it in one transaction.
    await runner.query(
      `CREATE UNIQUE INDEX api_keys_main_key ON api_keys (user_id) WHERE is_main AND revoked_at IS NULL`,
    );
    await runner.query(`
      ALTER TABLE sessions
        ADD COLUMN client_address text,
        ADD COLUMN user_agent text,
        ADD COLUMN trusted_device boolean NOT NULL DEFAULT false,
        ADD COLUMN last_used_at timestamptz,
        ADD COLUMN last_address text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE sessions DROP COLUMN client_address, DROP COLUMN user_agent,
        DROP COLUMN trusted_device, DROP COLUMN last_used_at, DROP COLUMN last_address`);
    await runner.query(`DROP INDEX api_keys_main_key`);
    await runner.query(`
      ALTER TABLE api_keys DROP COLUMN name, DROP COLUMN permissions, DROP COLUMN key_params,
        DROP COLUMN expires_at, DROP COLUMN last_used_at, DROP COLUMN is_main`);
  }
}
