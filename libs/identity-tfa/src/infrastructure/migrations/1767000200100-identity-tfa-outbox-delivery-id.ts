import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The development outbox records which send each message is (the delivery's idempotency
 * key), unique: a send is stored once however many workers attempt it, and a later attempt
 * can see that an earlier one, even a killed worker's, went out. Older rows have none.
 */
export class IdentityTfaOutboxDeliveryId1767000200100 implements MigrationInterface {
  name = 'IdentityTfaOutboxDeliveryId1767000200100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE tfa_outbox_messages ADD COLUMN delivery_id text`);
    await runner.query(
      `CREATE UNIQUE INDEX tfa_outbox_messages_delivery_key ON tfa_outbox_messages (delivery_id)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX tfa_outbox_messages_delivery_key`);
    await runner.query(`ALTER TABLE tfa_outbox_messages DROP COLUMN delivery_id`);
  }
}
