import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager } from '@app/platform';
import { PrimaryOnlyReads } from '@app/platform/testing';
import { chargeReportReaderContract } from '../../testing/charge-report-reader.contract';
import { PostgresChargeReportReader } from './postgres-charge-report.reader';
import { PostgresContractRepository } from './postgres-contract.repository';

// Contract ids owned by this file: 96001-96020.
const FIRST_ID = 96_000;

describe('PostgresChargeReportReader (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const users: number[] = [];

  chargeReportReaderContract(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    for (let i = 0; i < 2; i += 1) {
      const [user] = await tx.rows<{ id: number }>(
        `INSERT INTO users (email) VALUES ($1) RETURNING id`,
        [`billing-int-${randomUUID()}@example.test`],
      );
      users.push(user.id);
    }
    const contracts = new PostgresContractRepository(tx);
    return {
      reader: new PostgresChargeReportReader(new PrimaryOnlyReads(tx)),
      store: (contract, charges) => contracts.replace(contract, charges),
      main: users[0],
      other: users[1],
      firstId: FIRST_ID,
    };
  });

  // The users' contracts, charges and summary rows go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await dataSource.destroy();
  });
});
