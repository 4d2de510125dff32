/**
 * Maintenance of billing_statement_days, the per (owner, dimension, charged day, category,
 * key) summary the statement and the export's line count read (see the 1767000100002
 * migration). Every charge line of a contract is counted once in each of the four
 * dimensions, under the contract's key in that dimension (STATEMENT_KEYS).
 */
const COLUMNS = `owner_key, dimension, day, category, key, lines, amount, billed`;

/** The contract `c`'s key in each statement dimension; "(none)" where it has no value. */
const KEYS = `(VALUES ('type', c.category),
                      ('endpoint', coalesce('endpoint-' || c.endpoint_id, '(none)')),
                      ('workergroup', coalesce('workergroup-' || c.workergroup_id, '(none)')),
                      ('label', coalesce(c.label, '(none)'))) g(dimension, key)`;

/**
 * Contract $1's lines per statement row, from its current charges: read before a rewrite
 * replaces them, and again (as the new side) by applyStatementDeltaSql.
 */
export const contractStatementLinesSql = `
    SELECT c.owner_key, g.dimension, x.day, c.category, g.key, x.lines, x.amount, x.billed
      FROM billing_contracts c
      JOIN (SELECT day, count(*)::int AS lines, sum(amount) AS amount,
                   sum(round(amount, 3)) AS billed FROM billing_charges
             WHERE contract_id = $1 GROUP BY day) x ON true
      CROSS JOIN LATERAL ${KEYS}
     WHERE c.id = $1`;

/** A contract's lines as read before a rewrite, the parameters of the delta below. */
export interface StatementLines {
  owner_key: number;
  dimension: string;
  day: string;
  category: string;
  key: string;
  lines: number;
  amount: string;
  billed: string;
}

/**
 * Moves the summary from contract $1's earlier lines (the rows of contractStatementLinesSql,
 * as the arrays $2..$8) to its current ones, in one statement. Writers of other buckets
 * run in parallel and share these rows (the `type` rows of a category, a label's rows), so
 * each writer changes all of its rows at once, in the order of the table's key: two
 * writers then never hold a row the other waits for (a removal and an addition as two
 * statements deadlocked). Rows the rewrite leaves unchanged are not touched; a removed key
 * keeps a row with 0 lines, which the readers skip.
 */
export const applyStatementDeltaSql = `
    INSERT INTO billing_statement_days AS d (${COLUMNS})
    SELECT owner_key, dimension, day, category, key, sum(lines), sum(amount), sum(billed)
      FROM (${contractStatementLinesSql}
            UNION ALL
            SELECT owner_key, dimension, day, category, key, -lines, -amount, -billed
              FROM unnest($2::int[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::int[],
                          $8::numeric[], $9::numeric[])
                     AS earlier(owner_key, dimension, day, category, key, lines, amount, billed)
           ) delta
     GROUP BY owner_key, dimension, day, category, key
    HAVING sum(lines) <> 0 OR sum(amount) <> 0 OR sum(billed) <> 0
     ORDER BY owner_key, dimension, day, category, key
    ON CONFLICT (owner_key, dimension, day, category, key) DO UPDATE SET
      lines = d.lines + EXCLUDED.lines, amount = d.amount + EXCLUDED.amount,
      billed = d.billed + EXCLUDED.billed`;

/** The parameters of applyStatementDeltaSql for contract `contractId`'s earlier lines. */
export function statementDeltaParams(contractId: number, earlier: StatementLines[]): unknown[] {
  const column = <K extends keyof StatementLines>(name: K) => earlier.map((row) => row[name]);
  return [
    contractId,
    column('owner_key'),
    column('dimension'),
    column('day'),
    column('category'),
    column('key'),
    column('lines'),
    column('amount'),
    column('billed'),
  ];
}

/** Builds the summary in bulk for the contracts `c` selected by `join` (seed:demo, migration). */
export function bulkStatementDaysSql(join: string): string {
  return `
    INSERT INTO billing_statement_days (${COLUMNS})
    SELECT c.owner_key, g.dimension, x.day, c.category, g.key, sum(x.lines), sum(x.amount),
           sum(x.billed)
      FROM (SELECT ch.contract_id, ch.day, count(*)::int AS lines, sum(ch.amount) AS amount,
                   sum(round(ch.amount, 3)) AS billed
              FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id ${join}
             GROUP BY ch.contract_id, ch.day) x
      JOIN billing_contracts c ON c.id = x.contract_id
      CROSS JOIN LATERAL ${KEYS}
     GROUP BY 1, 2, 3, 4, 5`;
}
