import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ChargeStatementReader } from '../../application/ports/charge-statement.reader.port';
import { StatementQuery, StatementSum } from '../../domain/charge-statement';
import { statementSumsStatement } from './charge-statement.sql';

interface StatementSumRow {
  bucket: string | null;
  key: string | null;
  subkey: string | null;
  amount: string;
}

@Injectable()
export class PostgresChargeStatementReader extends ChargeStatementReader {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async sums(ownerKey: number, query: StatementQuery): Promise<StatementSum[]> {
    const { text, values } = statementSumsStatement(ownerKey, query);
    const rows = await this.tx.rows<StatementSumRow>(text, values);
    return rows.map((row) => ({
      bucket: row.bucket === null ? null : Number(row.bucket),
      key: row.key,
      ...(query.thenBy && row.key !== null ? { subkey: row.subkey } : {}),
      amount: row.amount,
    }));
  }
}
