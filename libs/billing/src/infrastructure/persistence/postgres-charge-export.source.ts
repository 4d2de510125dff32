import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import QueryStream from 'pg-query-stream';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import {
  ChargeExportSource,
  ChargeLineStream,
} from '../../application/ports/charge-export.source.port';
import { ChargeExportQuery } from '../../domain/charge-export';
import { exportLineCountStatement, exportLinesStatement } from './charge-statement.sql';

/** Rows per cursor fetch: the most the api holds of one export at a time (~1 MB). */
const BATCH_ROWS = 1000;

type Release = (error?: Error) => void;

/**
 * A cursor stream that gives its connection back when it is done. At its end the cursor
 * is closed and the connection returns to the pool; destroyed before its end (the client
 * went away, or a write failed), the connection is closed instead: waiting for the server
 * to finish the batch it is computing would hold a pool slot for nothing, and closing the
 * socket ends the backend, its portal and its snapshot at once.
 */
class ReleasingQueryStream extends QueryStream {
  private released = false;

  constructor(
    text: string,
    values: unknown[],
    private readonly release: Release,
  ) {
    super(text, values, { batchSize: BATCH_ROWS });
  }

  private releaseOnce(error?: Error): void {
    if (this.released) return;
    this.released = true;
    this.release(error);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.readableEnded && !error) {
      super._destroy(null as unknown as Error, (closeError?: Error | null) => {
        this.releaseOnce(closeError ?? undefined);
        callback(closeError);
      });
      return;
    }
    this.releaseOnce(error ?? new Error('charges export stopped before its end'));
    callback(error);
  }
}

/** The export's rows from a cursor on a connection of its own, taken from the pool. */
@Injectable()
export class PostgresChargeExportSource extends ChargeExportSource {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async open(ownerKey: number, query: ChargeExportQuery): Promise<ChargeLineStream> {
    const driver = this.dataSource.driver as PostgresDriver;
    const [client, release] = (await driver.obtainMasterConnection()) as [PoolClient, Release];
    try {
      const count = exportLineCountStatement(ownerKey, query.gte, query.lte, query.categories);
      const { rows } = await client.query<{ lines: string }>(count.text, count.values);
      const statement = exportLinesStatement(ownerKey, query.gte, query.lte, query.categories);
      const lines = client.query(
        new ReleasingQueryStream(statement.text, statement.values, release),
      );
      return { expectedLines: Number(rows[0]?.lines ?? 0), lines };
    } catch (error) {
      release(error as Error);
      throw error;
    }
  }
}
