/**
 * Maintenance of billing_statement_days, the per (user, dimension, charged day, category,
 * key) summary the statement and the export's line count read (see the 1767000100002
 * migration). Every charge line of a contract is counted once in each of the four
 * dimensions, under the contract's key in that dimension (STATEMENT_KEYS).
 */
const COLUMNS = `user_id, dimension, day, category, key, lines, amount`;

/** The contract `c`'s key in each statement dimension; "(none)" where it has no value. */
const KEYS = `(VALUES ('type', c.category),
                      ('endpoint', coalesce('endpoint-' || c.endpoint_id, '(none)')),
                      ('workergroup', coalesce('workergroup-' || c.workergroup_id, '(none)')),
                      ('label', coalesce(c.label, '(none)'))) g(dimension, key)`;

/**
 * Adds (+) or removes (-) contract $1 with its current charges. Lines and amounts are
 * added exactly; a removed key keeps a row with 0 lines, which the readers skip.
 */
export function contractStatementDaysSql(sign: '+' | '-'): string {
  return `
    INSERT INTO billing_statement_days AS d (${COLUMNS})
    SELECT c.user_id, g.dimension, x.day, c.category, g.key, ${sign}x.lines, ${sign}x.amount
      FROM billing_contracts c
      JOIN (SELECT day, count(*)::int AS lines, sum(amount) AS amount FROM billing_charges
             WHERE contract_id = $1 GROUP BY day) x ON true
      CROSS JOIN LATERAL ${KEYS}
     WHERE c.id = $1
     ORDER BY g.dimension, x.day, g.key
    ON CONFLICT (user_id, dimension, day, category, key) DO UPDATE SET
      lines = d.lines + EXCLUDED.lines, amount = d.amount + EXCLUDED.amount`;
}

/** Builds the summary in bulk for the contracts `c` selected by `join` (seed:demo, migration). */
export function bulkStatementDaysSql(join: string): string {
  return `
    INSERT INTO billing_statement_days (${COLUMNS})
    SELECT c.user_id, g.dimension, x.day, c.category, g.key, sum(x.lines), sum(x.amount)
      FROM (SELECT ch.contract_id, ch.day, count(*)::int AS lines, sum(ch.amount) AS amount
              FROM billing_charges ch JOIN billing_contracts c ON c.id = ch.contract_id ${join}
             GROUP BY ch.contract_id, ch.day) x
      JOIN billing_contracts c ON c.id = x.contract_id
      CROSS JOIN LATERAL ${KEYS}
     GROUP BY 1, 2, 3, 4, 5`;
}
