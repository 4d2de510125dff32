import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints and their deliveries (docs/spend-guards.md "Webhooks"). An endpoint's
 * owner is a key, as billing keys charges (a user's id, or minus a team's id), so it has no
 * foreign key; its deliveries go with it. A delivery keeps the exact body it posts, so every
 * retry and re-send carries the same bytes.
 */
export class SpendGuardsWebhooks1767000600100 implements MigrationInterface {
  name = 'SpendGuardsWebhooks1767000600100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE spend_guard_webhooks (
        id text PRIMARY KEY,
        owner_key integer NOT NULL,
        url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        description text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
        secret_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `CREATE INDEX spend_guard_webhooks_owner_idx ON spend_guard_webhooks (owner_key, created_at)`,
    );
    await runner.query(`
      CREATE TABLE spend_guard_webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        webhook_id text NOT NULL REFERENCES spend_guard_webhooks (id) ON DELETE CASCADE,
        event_id text NOT NULL,
        event_type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        delivered_at timestamptz
      )`);
    await runner.query(
      `CREATE INDEX spend_guard_webhook_deliveries_log_idx
         ON spend_guard_webhook_deliveries (webhook_id, created_at DESC, id)`,
    );
    await runner.query(
      `CREATE INDEX spend_guard_webhook_deliveries_pending_idx
         ON spend_guard_webhook_deliveries (created_at) WHERE status = 'pending'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE spend_guard_webhook_deliveries`);
    await runner.query(`DROP TABLE spend_guard_webhooks`);
  }
}
