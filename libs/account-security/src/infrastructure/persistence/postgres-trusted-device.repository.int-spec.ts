import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { TestUsers } from '@app/accounts/testing';
import { trustedDeviceRepositoryContract } from '../../testing/trusted-device-repository.contract';
import { PostgresTrustedDeviceRepository } from './postgres-trusted-device.repository';

describe('PostgresTrustedDeviceRepository (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let devices: PostgresTrustedDeviceRepository;
  let users: TestUsers;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    devices = new PostgresTrustedDeviceRepository(new TransactionalEntityManager(dataSource));
    users = new TestUsers(dataSource, 'trusted-devices');
  });
  afterAll(async () => {
    await users.removeAll();
    await dataSource.destroy();
  });

  trustedDeviceRepositoryContract('PostgresTrustedDeviceRepository', () => ({
    devices,
    newUserId: () => users.create(),
  }));

  it('stores only the fingerprint, unique: one token is never two devices', async () => {
    const userId = await users.create();
    const spec = {
      userId,
      tokenFingerprint: `fp-unique-${Date.now()}`,
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 86_400_000),
      userAgent: null,
      clientAddress: null,
    };
    await devices.create(spec);
    await expect(devices.create(spec)).rejects.toThrow();
    const columns: Array<{ column_name: string }> = await dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'tfa_trusted_devices'`,
    );
    expect(columns.map((c) => c.column_name)).not.toContain('token');
  });
});
