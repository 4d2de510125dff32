import { CHARGE_CATEGORIES } from '../../domain/charge-report';
import { StatementQuery } from '../../domain/charge-statement';
import { SqlStatement } from './charge-report.sql';

/**
 * The statement's sums over billing_statement_days (owner, dimension, day, category, key):
 * one index range scan of the caller's days in range for the grouping, so the cost is
 * O(days x keys). Calendar periods come from date_trunc in UTC ('week' starts on Monday).
 * Every figure is a sum of billed amounts (each charge line's amount rounded to 3 decimals,
 * docs/billing.md "Billed amounts"), so cells (bucket, key) add up to their period
 * (bucket, key null) and periods to the range (both null), exactly. Rows of keys
 * a rewritten contract no longer has (0 lines) are skipped.
 */
export function statementSumsStatement(ownerKey: number, query: StatementQuery): SqlStatement {
  // With two dimensions one is `type`: the rows of the other dimension carry the class in
  // their category column, so (key, category) pairs come from the same scan.
  const pair = query.thenBy !== undefined;
  const dimension = query.groupBy === 'type' && pair ? query.thenBy : query.groupBy;
  const [key, subkey] = !pair
    ? ['s.key', 'NULL::text']
    : query.groupBy === 'type'
      ? ['s.category', 's.key']
      : ['s.key', 's.category'];
  return {
    text: `
      WITH cells AS (
        SELECT extract(epoch FROM date_trunc($6, to_timestamp(s.day) AT TIME ZONE 'UTC'))::bigint
                 AS bucket,
               ${key} AS key, ${subkey} AS subkey, sum(s.billed) AS amount
          FROM billing_statement_days s
         WHERE s.owner_key = $1 AND s.dimension = $2 AND s.day >= $3 AND s.day <= $4
           AND s.category = ANY($5::text[]) AND s.lines > 0
         GROUP BY 1, 2, 3)
      SELECT bucket, key, subkey, coalesce(round(sum(amount), 3), 0)::text AS amount
        FROM cells
       GROUP BY GROUPING SETS ((bucket, key, subkey), (bucket), ())`,
    values: [
      ownerKey,
      dimension,
      query.gte,
      query.lte,
      query.categories ?? CHARGE_CATEGORIES,
      query.period,
    ],
  };
}

/** Charge lines the export of this range will hold, from the same summary. O(days x classes). */
export function exportLineCountStatement(
  ownerKey: number,
  gte: number,
  lte: number,
  categories: readonly string[] | null,
): SqlStatement {
  return {
    text: `
      SELECT coalesce(sum(lines), 0)::bigint::text AS lines
        FROM billing_statement_days
       WHERE owner_key = $1 AND dimension = 'type' AND day >= $2 AND day <= $3
         AND category = ANY($4::text[])`,
    values: [ownerKey, gte, lte, categories ?? CHARGE_CATEGORIES],
  };
}

/**
 * Every daily charge line of the caller's contracts in range, as ChargeLine rows, in
 * export order: contracts by start then source, then day, then type in gpu, disk, bwd,
 * bwu order. The plan must start streaming at once, not hash-join and sort the whole
 * range (a year of the heavy user is 2.3 M lines): the LATERAL subquery, kept from being
 * flattened by OFFSET 0, makes it a nested loop from the walk index (already in contract
 * order) into the charges primary key, with an incremental sort within each contract.
 * A protocol-level portal is planned for all its rows (cursor_tuple_fraction applies to
 * DECLARE CURSOR only), hence the explicit shape.
 */
export function exportLinesStatement(
  ownerKey: number,
  gte: number,
  lte: number,
  categories: readonly string[] | null,
): SqlStatement {
  return {
    text: `
      SELECT /* charges-export */ c.id AS "contractId", c.category AS "contractType", c.label,
             c.endpoint_id AS "endpointId", c.workergroup_id AS "workergroupId", ch.type,
             ch.day::float8 AS day, ch.quantity::text AS quantity, ch.unit,
             ch.rate::text AS rate, ch.amount::text AS amount,
             round(ch.amount, 3)::text AS billed
        FROM billing_contracts c
       CROSS JOIN LATERAL (
         SELECT ch.type, ch.day, ch.quantity, ch.unit, ch.rate, ch.amount
           FROM billing_charges ch
          WHERE ch.contract_id = c.id AND ch.day >= $2 AND ch.day <= $3
         OFFSET 0) ch
       WHERE c.owner_key = $1 AND c.category = ANY($4::text[])
         AND c.first_charge_day <= $3 AND c.last_charge_day >= $2
       ORDER BY c.start_ts, c.source, ch.day,
                array_position(ARRAY['gpu', 'disk', 'bwd', 'bwu'], ch.type)`,
    values: [ownerKey, gte, lte, categories ?? CHARGE_CATEGORIES],
  };
}
