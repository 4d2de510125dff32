import { formatCell } from '../output/format';
import { renderKeyValues } from '../output/table';

const MONEY_FIELDS = new Set(['credit', 'balance', 'balance_threshold']);

/** show user: one line per field, money with 2 decimals. */
export function renderUser(user: object): string {
  return renderKeyValues(
    Object.entries(user).map(([field, value]) => [
      field,
      MONEY_FIELDS.has(field) && typeof value === 'number' ? value.toFixed(2) : formatCell(value),
    ]),
  );
}
