import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { PostgresBackupCodeRepository } from './postgres-backup-code.repository';
import { PostgresTfaMethodRepository } from './postgres-tfa-method.repository';

describe('2FA repositories (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let methods: PostgresTfaMethodRepository;
  let backupCodes: PostgresBackupCodeRepository;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    methods = new PostgresTfaMethodRepository(tx);
    backupCodes = new PostgresBackupCodeRepository(tx);
  });
  afterAll(() => dataSource.destroy());

  async function newUser(): Promise<number> {
    const rows = await dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
      `repo-${randomUUID()}@example.test`,
    ]);
    return rows[0].id;
  }

  const totp = (userId: number) =>
    methods.create({
      userId,
      type: 'totp',
      label: 'app',
      phoneNumber: null,
      isPrimary: true,
      lastTotpStep: null,
    });

  it('keeps one method per type and user, also under parallel inserts', async () => {
    const userId = await newUser();
    const created = await Promise.all(Array.from({ length: 10 }, () => totp(userId)));
    expect(created.filter((row) => row !== null)).toHaveLength(1);
    expect(await methods.listByUser(userId)).toHaveLength(1);
  });

  it('advances the TOTP step only forwards (compare-and-set)', async () => {
    const method = (await totp(await newUser()))!;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => methods.advanceTotpStep(method.id, 100)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await methods.advanceTotpStep(method.id, 99)).toBe(false);
    expect(await methods.advanceTotpStep(method.id, 101)).toBe(true);
  });

  it('consumes a backup code exactly once under parallel use; a new set replaces the old', async () => {
    const userId = await newUser();
    await backupCodes.replaceSet(userId, ['d1', 'd2']);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => backupCodes.consume(userId, 'd1', new Date())),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await backupCodes.countUnused(userId)).toBe(1);
    await backupCodes.replaceSet(userId, ['d3']);
    expect(await backupCodes.consume(userId, 'd2', new Date())).toBe(false);
    expect(await backupCodes.wasUsed(userId, 'd1')).toBe(true);
    expect(await backupCodes.wasUsed(userId, 'd2')).toBe(false);
    expect(await backupCodes.countUnused(userId)).toBe(1);
    await backupCodes.softDeleteAll(userId, new Date());
    expect(await backupCodes.countUnused(userId)).toBe(0);
  });
});
