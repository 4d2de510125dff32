import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { ChargeStatementReader } from '../application/ports/charge-statement.reader.port';
import { StatementQuery, StatementSum } from '../domain/charge-statement';
import { statementSumsStatement } from './charge-statement.sql';

@Injectable()
export class SqlChargeStatementReader extends ChargeStatementReader {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async sums(userId: number, query: StatementQuery): Promise<StatementSum[]> {
    const statement = statementSumsStatement(userId, query);
    const rows = (await this.tx.manager.query(statement.text, statement.values)) as Array<{
      bucket: string | null;
      key: string | null;
      amount: string;
    }>;
    return rows.map((row) => ({
      bucket: row.bucket === null ? null : Number(row.bucket),
      key: row.key,
      amount: row.amount,
    }));
  }
}
