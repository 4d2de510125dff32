import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { NewSecurityEvent } from '../../domain/security-event';
import { securityEventRepositoryContract } from '../../testing/security-event-repository.contract';
import { TestUsers } from '@app/accounts/testing';
import { PostgresSecurityEventRepository } from './postgres-security-event.repository';

describe('PostgresSecurityEventRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let events: PostgresSecurityEventRepository;
  let uow: TypeormUnitOfWork;
  let users: TestUsers;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    events = new PostgresSecurityEventRepository(tx);
    uow = new TypeormUnitOfWork(tx);
    users = new TestUsers(dataSource, 'security-events');
  });
  afterAll(async () => {
    await users.removeAll();
    await dataSource.destroy();
  });

  securityEventRepositoryContract('PostgresSecurityEventRepository', () => ({
    events,
    unitOfWork: uow,
    newUserId: () => users.create(),
  }));

  const event = (userId: number): NewSecurityEvent => ({
    userId,
    kind: 'login',
    method: 'totp',
    details: { trusted_device: false },
    origin: { address: '203.0.113.7', userAgent: 'int-spec/1.0' },
    occurredAt: new Date(),
  });
  const count = async (userId: number) =>
    (
      await dataSource.query(
        `SELECT count(*)::int AS n FROM tfa_security_events WHERE user_id = $1`,
        [userId],
      )
    )[0].n as number;

  describe('is append-only in the database', () => {
    it('refuses every UPDATE, whatever the session set', async () => {
      const userId = await users.create();
      const { id } = await events.append(event(userId));
      await expect(
        dataSource.query(`UPDATE tfa_security_events SET kind = 'login' WHERE id = $1`, [id]),
      ).rejects.toThrow(/append-only: UPDATE refused/);
      await expect(
        dataSource.transaction(async (manager) => {
          await manager.query(`SET LOCAL gpumarket.pruning_security_events = 'on'`);
          await manager.query(`UPDATE tfa_security_events SET details = '{}' WHERE id = $1`, [id]);
        }),
      ).rejects.toThrow(/append-only: UPDATE refused/);
      expect((await events.listPage(userId, 1, null))[0].details).toEqual({
        trusted_device: false,
      });
    });

    it('refuses DELETE and TRUNCATE unless the prune set its transaction-local flag', async () => {
      const userId = await users.create();
      await events.append(event(userId));
      await expect(
        dataSource.query(`DELETE FROM tfa_security_events WHERE user_id = $1`, [userId]),
      ).rejects.toThrow(/append-only: DELETE refused/);
      // In a transaction that never commits: were the refusal missing, nothing is lost.
      await expect(
        dataSource.transaction(async (manager) => {
          await manager.query(`TRUNCATE tfa_security_events CASCADE`);
          throw new Error('TRUNCATE was not refused');
        }),
      ).rejects.toThrow(/append-only: TRUNCATE refused/);
      // Set for one transaction only: the next one is refused again.
      await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL gpumarket.pruning_security_events = 'on'`);
        await manager.query(`SELECT 1`);
      });
      await expect(
        dataSource.query(`DELETE FROM tfa_security_events WHERE user_id = $1`, [userId]),
      ).rejects.toThrow(/append-only: DELETE refused/);
      expect(await count(userId)).toBe(1);
      await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL gpumarket.pruning_security_events = 'on'`);
        await manager.query(`DELETE FROM tfa_security_events WHERE user_id = $1`, [userId]);
      });
      expect(await count(userId)).toBe(0);
    });

    it("goes with its account (the foreign key's cascade)", async () => {
      const userId = await users.create();
      await events.append(event(userId));
      await dataSource.query(`DELETE FROM users WHERE id = $1`, [userId]);
      expect(await count(userId)).toBe(0);
    });

    it('prunes only inside a unit of work, whose flag it sets', async () => {
      await expect(events.pruneBatch(new Date(0), 10)).rejects.toThrow(/inside a unit of work/);
    });
  });

  it('an event appended in a unit of work that rolls back is gone', async () => {
    const userId = await users.create();
    await expect(
      uow.run(async () => {
        await events.append(event(userId));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count(userId)).toBe(0);
  });

  it('refuses a user agent over 256 characters and a kind outside the list', async () => {
    const userId = await users.create();
    await expect(
      events.append({ ...event(userId), origin: { address: null, userAgent: 'x'.repeat(257) } }),
    ).rejects.toThrow();
    await expect(
      events.append({ ...event(userId), kind: 'password_changed' as never }),
    ).rejects.toThrow();
  });
});
