import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  BilledSpendQuery,
  BilledSpendReader,
} from '../../application/ports/billed-spend.reader.port';

/**
 * The billed sum of an owner's charges between two days: one walk of the owner's
 * contracts (`owner_key` leads the contracts' walk indexes) joined to their charges of
 * the range by the charges' primary key (contract_id, day, type). Reads the primary: an
 * evaluation right after a write must see it.
 */
@Injectable()
export class PostgresBilledSpendReader extends BilledSpendReader {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async billedBetween(query: BilledSpendQuery): Promise<string> {
    const [row] = await this.tx.rows<{ billed: string }>(
      `SELECT round(coalesce(sum(round(ch.amount, 3)), 0), 3)::text AS billed
         FROM billing_contracts c
         JOIN billing_charges ch ON ch.contract_id = c.id AND ch.day >= $2 AND ch.day < $3
        WHERE c.owner_key = $1
          AND c.first_charge_day < $3 AND c.last_charge_day >= $2
          AND ($4::text IS NULL OR c.label = $4)
          AND ($5::integer IS NULL OR c.endpoint_id = $5)
          AND ($6::integer IS NULL OR c.workergroup_id = $6)`,
      [
        query.ownerKey,
        query.fromDay,
        query.toDay,
        query.label ?? null,
        query.endpointId ?? null,
        query.workergroupId ?? null,
      ],
    );
    return row.billed;
  }
}
