import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verification failures move from the method rows to a ledger per user and channel, so
 * email and backup codes are counted too and a new challenge resets nothing; spent
 * challenges are recorded here, in the transaction of the action they authorised.
 */
export class TfaVerificationLedger1767000200001 implements MigrationInterface {
  name = 'TfaVerificationLedger1767000200001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE tfa_verification_failures (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        channel text NOT NULL CHECK (channel IN ('totp', 'sms', 'email', 'backup_code', 'user')),
        failures timestamptz[] NOT NULL DEFAULT '{}',
        locked_until timestamptz,
        PRIMARY KEY (user_id, channel)
      )`);
    // Existing counts carry over as failures made now, existing locks as they are.
    await runner.query(`
      INSERT INTO tfa_verification_failures (user_id, channel, failures, locked_until)
      SELECT user_id, method, array_fill(now(), ARRAY[LEAST(fail_count, 5)]), locked_until
        FROM tfa_methods
       WHERE fail_count > 0 OR locked_until > now()`);
    await runner.query(`ALTER TABLE tfa_methods DROP COLUMN fail_count, DROP COLUMN locked_until`);
    await runner.query(`
      CREATE TABLE tfa_spent_challenges (
        challenge_id text PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        spent_at timestamptz NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX tfa_spent_challenges_user_idx ON tfa_spent_challenges (user_id, spent_at)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE tfa_spent_challenges`);
    await runner.query(`
      ALTER TABLE tfa_methods ADD COLUMN fail_count integer NOT NULL DEFAULT 0,
                              ADD COLUMN locked_until timestamptz`);
    await runner.query(`
      UPDATE tfa_methods m
         SET fail_count = cardinality(f.failures), locked_until = f.locked_until
        FROM tfa_verification_failures f
       WHERE f.user_id = m.user_id AND f.channel = m.method`);
    await runner.query(`DROP TABLE tfa_verification_failures`);
  }
}
