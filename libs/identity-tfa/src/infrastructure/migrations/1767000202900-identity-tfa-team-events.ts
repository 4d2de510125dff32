import { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS = [
  'tfa_enabled',
  'tfa_disabled',
  'method_added',
  'method_removed',
  'method_updated',
  'backup_codes_regenerated',
  'backup_code_used',
  'method_locked',
  'login',
  'session_revoked',
  'admin_reset',
  'device_trusted',
  'device_revoked',
  'api_key_created',
  'api_key_deleted',
  'api_key_reset',
  'team_changed',
];

/** Team membership, role and policy changes are security events too (docs/teams.md). */
export class IdentityTfaTeamEvents1767000202900 implements MigrationInterface {
  name = 'IdentityTfaTeamEvents1767000202900';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE tfa_security_events
        DROP CONSTRAINT tfa_security_events_kind_check,
        ADD CONSTRAINT tfa_security_events_kind_check
          CHECK (kind IN (${KINDS.map((kind) => `'${kind}'`).join(', ')}))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM tfa_security_events WHERE kind = 'team_changed'`);
    await runner.query(`
      ALTER TABLE tfa_security_events
        DROP CONSTRAINT tfa_security_events_kind_check,
        ADD CONSTRAINT tfa_security_events_kind_check
          CHECK (kind IN (${KINDS.slice(0, -1)
            .map((kind) => `'${kind}'`)
            .join(', ')}))`);
  }
}
