import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * endpoint_name also accepts `.`, `/` and `:` (model names: `llama-3.1-8b`, `meta/llama:3.1`);
 * the CHECK repeats the api's rule (docs/marketplace.md). Every name stored under the old
 * rule still satisfies the new one, so the constraint is replaced without a data check.
 */
export class EndpointNamePunctuation1767000400001 implements MigrationInterface {
  name = 'EndpointNamePunctuation1767000400001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE endpoint_groups
        DROP CONSTRAINT endpoint_groups_endpoint_name_check,
        ADD CONSTRAINT endpoint_groups_endpoint_name_check
          CHECK (endpoint_name ~ '^[A-Za-z0-9._:/-]{1,255}$')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    // Names using the new characters would break the old rule: refuse rather than lose them.
    await runner.query(`
      ALTER TABLE endpoint_groups
        DROP CONSTRAINT endpoint_groups_endpoint_name_check,
        ADD CONSTRAINT endpoint_groups_endpoint_name_check
          CHECK (endpoint_name ~ '^[A-Za-z0-9_-]{1,255}$')`);
  }
}
