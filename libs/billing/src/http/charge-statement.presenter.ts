import { ChargeStatement } from '../domain/charge-statement';
import { ChargeStatementDto } from './charge-statement.response.dto';

/** GET /api/v0/charges/summary/ (docs/billing.md "Statement"). */
export function presentChargeStatement(statement: ChargeStatement): ChargeStatementDto {
  return {
    success: true,
    periods: statement.periods.map((period) => ({
      start: period.start,
      end: period.end,
      groups: period.groups.map((group) =>
        group.subkey === undefined
          ? { key: group.key, amount: group.amount }
          : { key: group.key, subkey: group.subkey, amount: group.amount },
      ),
      amount: period.amount,
    })),
    amount: statement.amount,
  };
}
