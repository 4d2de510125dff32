import { DataSource } from 'typeorm';
// globalSetup runs outside jest's module registry, so path aliases are not available here.
import {
  dataSourceOptions,
  ensureDatabaseExists,
  runMigrations,
} from '../../libs/platform/src/infrastructure/database/database-setup';
import { TEST_DATABASE_URL } from './test-env';

/** Creates the test database and applies migrations once, before any test file runs. */
export default async function globalSetup(): Promise<void> {
  await ensureDatabaseExists(TEST_DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(TEST_DATABASE_URL));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
