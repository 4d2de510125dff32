import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ChargeStatementReader } from '../../application/ports/charge-statement.reader.port';
import { StatementQuery, StatementSum } from '../../domain/charge-statement';
import { statementSumsStatement } from './charge-statement.sql';

interface StatementSumRow {
  bucket: string | null;
  key: string | null;
  amount: string;
}

@Injectable()
export class PostgresChargeStatementReader extends ChargeStatementReader {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async sums(userId: number, query: StatementQuery): Promise<StatementSum[]> {
    const { text, values } = statementSumsStatement(userId, query);
    const rows = await this.tx.rows<StatementSumRow>(text, values);
    return rows.map((row) => ({
      bucket: row.bucket === null ? null : Number(row.bucket),
      key: row.key,
      amount: row.amount,
    }));
  }
}
