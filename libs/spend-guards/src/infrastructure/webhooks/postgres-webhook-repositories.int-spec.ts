import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { webhookRepositoriesContract } from '../../testing/webhook-repositories.contract';
import { PostgresWebhookDeliveryRepository } from './postgres-webhook-delivery.repository';
import { PostgresWebhookRepository } from './postgres-webhook.repository';

describe('webhook persistence (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let tx: TransactionalEntityManager;
  // Owner keys no user or team of another test has: endpoints have no foreign key.
  const owner = 1_900_000_000 + Math.floor(Math.random() * 10_000_000);
  const stranger = -owner;
  const owners = [owner, stranger, owner + 1_000, owner + 1_001, owner + 2_000, owner + 2_001];

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    tx = new TransactionalEntityManager(dataSource);
  });

  // Their deliveries go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM spend_guard_webhooks WHERE owner_key = ANY($1)`, [owners]);
    await dataSource.destroy();
  });

  describe('the repositories contract', () => {
    webhookRepositoriesContract(async () => ({
      webhooks: new PostgresWebhookRepository(tx),
      deliveries: new PostgresWebhookDeliveryRepository(tx),
      owner,
      stranger,
    }));
  });

  it("serialises two creations of one owner with the owner's lock", async () => {
    const webhooks = new PostgresWebhookRepository(tx);
    await expect(webhooks.lockOwner(owner)).rejects.toThrow('inside a unit of work');
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const firstLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = tx.transaction(async () => {
      await webhooks.lockOwner(owner);
      order.push('first locked');
      locked();
      await held;
      order.push('first done');
    });
    await firstLocked;
    const second = tx.transaction(async () => {
      await webhooks.lockOwner(owner);
      order.push('second locked');
    });
    // The second waits on the lock (pg_locks shows it not granted) until the first commits.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [row] = await dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted AND objid = $1::bigint::oid`,
        [owner],
      );
      if (row.waiting > 0) break;
      if (Date.now() > deadline) throw new Error('the second creation never waited on the lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(order).toEqual(['first locked']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second locked']);
  });
});
