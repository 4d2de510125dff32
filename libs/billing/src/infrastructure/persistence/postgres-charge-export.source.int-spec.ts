import { chargeExportSourceContract } from '../../testing/charge-export-source.contract';
import { onPostgres } from '../../testing/postgres-billing-database';
import { PostgresChargeExportSource } from './postgres-charge-export.source';

describe('PostgresChargeExportSource (real PostgreSQL, a cursor on a pooled connection)', () => {
  // Contract ids owned by this file: 98001-98020.
  onPostgres('billing-export-int', 98_000, chargeExportSourceContract, ({ dataSource }) => ({
    source: new PostgresChargeExportSource(dataSource),
  }));
});
