import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  BilledSpendQuery,
  BilledSpendReader,
} from '../../application/ports/billed-spend.reader.port';

/** The statement summary's row of a scope of one dimension: its dimension and key. */
function statementKeyOf(query: BilledSpendQuery): { dimension: string; key: string } | null {
  const given = [
    query.label != null && { dimension: 'label', key: query.label },
    query.endpointId != null && { dimension: 'endpoint', key: `endpoint-${query.endpointId}` },
    query.workergroupId != null && {
      dimension: 'workergroup',
      key: `workergroup-${query.workergroupId}`,
    },
  ].filter((scope) => scope !== false);
  if (given.length === 0) return { dimension: 'type', key: '' };
  // The summary files a contract without a label under '(none)': a label of that very
  // name is read from the charges, where the two differ.
  if (given.length > 1 || query.label === '(none)') return null;
  return given[0];
}

/**
 * The billed sum of an owner's charges between two days. Reads the primary: an evaluation
 * right after a write must see it.
 *
 * With no scope or a scope of one dimension it adds the statement summary's days
 * (billing_statement_days, kept in step by every write in the write's own transaction,
 * its `billed` the same sum of lines rounded to 3 decimals): a few rows per day, however
 * many contracts the owner has, which is what lets every write evaluate its owner's
 * budgets. A scope of two or three dimensions (no summary row holds their intersection)
 * walks the owner's contracts (`owner_key` leads the contracts' walk indexes) joined to
 * their charges of the range by the charges' primary key.
 */
@Injectable()
export class PostgresBilledSpendReader extends BilledSpendReader {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async billedBetween(query: BilledSpendQuery): Promise<string> {
    const summary = statementKeyOf(query);
    if (summary) {
      // Without a scope every contract is once under 'type': all of its keys are summed.
      const [row] = await this.tx.rows<{ billed: string }>(
        `SELECT round(coalesce(sum(billed), 0), 3)::text AS billed
           FROM billing_statement_days
          WHERE owner_key = $1 AND dimension = $2 AND day >= $3 AND day < $4
            AND ($5::text = '' OR key = $5)`,
        [query.ownerKey, summary.dimension, query.fromDay, query.toDay, summary.key],
        { prepare: true },
      );
      return row.billed;
    }
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
