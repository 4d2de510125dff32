import { PrimaryOnlyReads } from '@app/platform/testing';
import { chargeReportReaderContract } from '../../testing/charge-report-reader.contract';
import { onPostgres } from '../../testing/postgres-billing-database';
import { PostgresChargeReportReader } from './postgres-charge-report.reader';

describe('PostgresChargeReportReader (real PostgreSQL)', () => {
  // Contract ids owned by this file: 96001-96020.
  onPostgres('billing-report-int', 96_000, chargeReportReaderContract, ({ tx }) => ({
    reader: new PostgresChargeReportReader(new PrimaryOnlyReads(tx)),
  }));
});
