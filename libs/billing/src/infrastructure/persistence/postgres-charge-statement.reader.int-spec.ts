import { chargeStatementReaderContract } from '../../testing/charge-statement-reader.contract';
import { onPostgres } from '../../testing/postgres-billing-database';
import { PostgresChargeStatementReader } from './postgres-charge-statement.reader';

describe('PostgresChargeStatementReader (real PostgreSQL)', () => {
  // Contract ids owned by this file: 97001-97020.
  onPostgres('billing-statement-int', 97_000, chargeStatementReaderContract, ({ tx }) => ({
    reader: new PostgresChargeStatementReader(tx),
  }));
});
