import { ChargeItemTotals, ContractKind } from './charge-report';

/** "96" -> "96.000", "14.2" -> "14.200", "-0.5" -> "-0.500": a decimal string with 3 places. */
export function threeDecimals(decimal: string): string {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const padded = (fraction + '000').slice(0, 3);
  const rounded =
    fraction.length > 3 ? roundUpIfNeeded(whole, padded, fraction[3]) : `${whole}.${padded}`;
  return negative && !/^0\.000$/.test(rounded) ? `-${rounded}` : rounded;
}

function roundUpIfNeeded(whole: string, kept: string, next: string): string {
  if (next < '5') return `${whole}.${kept}`;
  const scaled = BigInt(whole + kept) + 1n;
  const digits = scaled.toString().padStart(4, '0');
  return `${digits.slice(0, -3)}.${digits.slice(-3)}`;
}

/** A rate shown with at least 3 decimals and no trailing zeros beyond them: 0.389, 0.0045, 1.500. */
export function formatRate(decimal: string): string {
  const [whole, fraction = ''] = decimal.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return `${whole}.${trimmed.length >= 3 ? trimmed : (trimmed + '000').slice(0, 3)}`;
}

/** "hours" -> "hour", "GB-days" -> "GB-day": the unit a rate is quoted per. */
export function singularUnit(unit: string): string {
  return unit.endsWith('s') && unit.length > 1 ? unit.slice(0, -1) : unit;
}

/**
 * `96.000 hours at $0.389/hour`, `120.000 GB-days at $0.005/GB-day`,
 * `14.200 GB downloaded`, `3.100 GB uploaded`.
 */
export function itemDescription(
  item: Pick<ChargeItemTotals, 'type' | 'quantity' | 'unit' | 'rate'>,
): string {
  const quantity = `${threeDecimals(item.quantity)} ${item.unit}`;
  switch (item.type) {
    case 'bwd':
      return `${quantity} downloaded`;
    case 'bwu':
      return `${quantity} uploaded`;
    default:
      return `${quantity} at $${formatRate(item.rate)}/${singularUnit(item.unit)}`;
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `Instance 12345678 Charges - 4 days` (days = distinct charged days in the range). */
export function contractDescription(kind: ContractKind, id: number, days: number): string {
  return `${kind === 'volume' ? 'Volume' : 'Instance'} ${id} Charges - ${plural(days, 'day')}`;
}

/** `Endpoint 19392 Charges - 3 contracts`, `Workergroup 7 Charges - 1 contract`. */
export function wrapperDescription(groupSource: string, contracts: number): string {
  const { groupType, groupId } = parseGroupSource(groupSource);
  const title = groupType === 'endpoint' ? 'Endpoint' : 'Workergroup';
  return `${title} ${groupId} Charges - ${plural(contracts, 'contract')}`;
}

export function parseGroupSource(groupSource: string): {
  groupType: 'endpoint' | 'workergroup';
  groupId: number;
} {
  const [groupType, id] = groupSource.split('-');
  return { groupType: groupType === 'endpoint' ? 'endpoint' : 'workergroup', groupId: Number(id) };
}
