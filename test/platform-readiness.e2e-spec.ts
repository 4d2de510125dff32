import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { runManage, startApi } from '@test/support/api';
import { TEST_DATABASE_URL, temporaryDatabaseUrl } from '@test/support/test-env';

/** An orchestrator must never route to an instance whose schema is not migrated. */
describe('readiness while migrations are pending', () => {
  const { name: database, url: databaseUrl } = temporaryDatabaseUrl('pending');
  const url = new URL(databaseUrl);

  afterAll(async () => {
    const admin = new Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('is 503 "migrations pending" until the release step runs them, then 200 without a restart', async () => {
    // No worker: on the shared Redis it would take other files' delivery jobs to a database
    // without tables.
    const api = await startApi({
      DATABASE_URL: url.toString(),
      MIGRATIONS_RUN: 'false',
      RUN_WORKER: 'false',
    });
    try {
      const before = await api.http().get('/health/ready');
      expect(before.status).toBe(503);
      expect(before.body.error.instance).toEqual({ status: 'down', message: 'migrations pending' });
      await api.http().get('/health/live').expect(200);

      const release = await runManage(['migration:run'], { DATABASE_URL: url.toString() });
      expect(release.code).toBe(0);
      expect((release.json as { applied: string[] }).applied).toContain(
        'AccountsInit1767000000000',
      );

      const after = await api.http().get('/health/ready');
      expect(after.status).toBe(200);
      expect(after.body.info.instance.status).toBe('up');
      const rerun = await runManage(['migration:run'], { DATABASE_URL: url.toString() });
      expect(rerun.json).toEqual({ applied: [] });
      expect(
        await new DataSource({ type: 'postgres', url: url.toString() })
          .initialize()
          .then(async (ds) => {
            const tables = await ds.query(
              `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'users'`,
            );
            await ds.destroy();
            return tables[0].n;
          }),
      ).toBe(1);
    } finally {
      await api.close();
    }
  });
});
