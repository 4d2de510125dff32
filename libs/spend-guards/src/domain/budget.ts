/** How long a budget's period is: UTC calendar days, weeks from Monday, months. */
export type BudgetPeriod = 'day' | 'week' | 'month';
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month'];

/**
 * Who a budget belongs to, as billing's charges do (docs/billing.md "Owners"): a team in
 * its context (`userId` null), else a user (`teamId` null).
 */
export interface BudgetOwner {
  userId: number | null;
  teamId: number | null;
}

/** Which charges a budget counts: every key given must match the charge's contract. */
export interface BudgetScope {
  label: string | null;
  endpointId: number | null;
  workergroupId: number | null;
}

/** A budget: an amount an owner means to spend per period, and the percents that warn. */
export interface Budget {
  readonly id: number;
  readonly owner: BudgetOwner;
  /** The owner as one key, as billing's `owner_key` (user id, or the team's id negated). */
  readonly ownerKey: number;
  readonly name: string;
  /** Decimal string with 3 decimals (`"250.000"`). */
  readonly amount: string;
  readonly period: BudgetPeriod;
  readonly scope: BudgetScope;
  /** Distinct integer percents, ascending. */
  readonly thresholds: number[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The caller as billing reads charges: the team of a team's context, else the user. */
export function budgetOwnerOf(caller: { userId: number; teamId: number | null }): BudgetOwner {
  return caller.teamId === null
    ? { userId: caller.userId, teamId: null }
    : { userId: null, teamId: caller.teamId };
}

/** billing's owner key of a budget owner (chargeOwnerKey). */
export function budgetOwnerKey(owner: BudgetOwner): number {
  return owner.teamId !== null ? -owner.teamId : owner.userId!;
}

export const BUDGET_POLICY = {
  nameMaxLength: 100,
  labelMaxLength: 100,
  /** Dollars, inclusive. */
  maxAmount: 1_000_000_000,
  maxDecimals: 3,
  minThreshold: 1,
  maxThreshold: 1000,
  maxThresholds: 10,
  defaultThresholds: [50, 80, 100] as readonly number[],
  maxBudgetsPerOwner: 100,
} as const;

/** Kept for the generated tests' names. */
export const BUDGET_NAME_MAX_LENGTH = BUDGET_POLICY.nameMaxLength;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` cannot name a budget, or null when it can. */
export function budgetNameProblem(name: string): string | null {
  if (name.trim().length === 0) return 'name must not be empty';
  if ([...name].length > BUDGET_NAME_MAX_LENGTH)
    return `name must be at most ${BUDGET_NAME_MAX_LENGTH} characters`;
  if (CONTROL.test(name)) return 'name must not contain control characters';
  return null;
}

/**
 * The amount as a decimal string with 3 decimals, or why it is not one: a JSON number or
 * a decimal string, > 0, at most 1e9, at most 3 decimals.
 */
export function parseBudgetAmount(value: unknown): { amount: string } | { problem: string } {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'amount must be a number' };
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return { problem: 'amount must be a number or a decimal string' };
  }
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { problem: 'amount must be a decimal number such as 250 or "250.50"' };
  const fraction = match[2] ?? '';
  if (fraction.length > BUDGET_POLICY.maxDecimals)
    return { problem: `amount must have at most ${BUDGET_POLICY.maxDecimals} decimals` };
  const thousandths = BigInt(match[1]) * 1000n + BigInt(fraction.padEnd(3, '0') || '0');
  if (thousandths <= 0n) return { problem: 'amount must be greater than 0' };
  if (thousandths > BigInt(BUDGET_POLICY.maxAmount) * 1000n)
    return { problem: `amount must be at most ${BUDGET_POLICY.maxAmount}` };
  return { amount: formatThousandths(thousandths) };
}

/** Why `thresholds` are not a budget's, or null: 1 to 10 distinct integers 1..1000. */
export function thresholdsProblem(thresholds: unknown): string | null {
  if (!Array.isArray(thresholds)) return 'thresholds must be a list of integer percents';
  if (thresholds.length < 1 || thresholds.length > BUDGET_POLICY.maxThresholds)
    return `thresholds must hold 1 to ${BUDGET_POLICY.maxThresholds} percents`;
  for (const threshold of thresholds) {
    if (
      typeof threshold !== 'number' ||
      !Number.isInteger(threshold) ||
      threshold < BUDGET_POLICY.minThreshold ||
      threshold > BUDGET_POLICY.maxThreshold
    )
      return `thresholds must be integers from ${BUDGET_POLICY.minThreshold} to ${BUDGET_POLICY.maxThreshold}`;
  }
  if (new Set(thresholds).size !== thresholds.length) return 'thresholds must be distinct';
  return null;
}

/** Thresholds as a budget keeps them: ascending. */
export function sortedThresholds(thresholds: readonly number[]): number[] {
  return [...thresholds].sort((a, b) => a - b);
}

/** Why `period` is not a budget's period, or null. */
export function periodProblem(period: unknown): string | null {
  return BUDGET_PERIODS.includes(period as BudgetPeriod)
    ? null
    : `period must be one of ${BUDGET_PERIODS.join(', ')}`;
}

/** Why the scope cannot be a budget's, or null. */
export function scopeProblem(scope: {
  label?: unknown;
  endpointId?: unknown;
  workergroupId?: unknown;
}): string | null {
  const { label, endpointId, workergroupId } = scope;
  if (label !== undefined && label !== null) {
    if (typeof label !== 'string' || label.length === 0) return 'label must be a non-empty string';
    if ([...label].length > BUDGET_POLICY.labelMaxLength)
      return `label must be at most ${BUDGET_POLICY.labelMaxLength} characters`;
    if (CONTROL.test(label)) return 'label must not contain control characters';
  }
  for (const [name, id] of [
    ['endpoint_id', endpointId],
    ['workergroup_id', workergroupId],
  ] as const) {
    if (id === undefined || id === null) continue;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647)
      return `${name} must be a positive integer`;
  }
  return null;
}

/** A decimal string with at most 3 decimals in thousandths (`"12.5"` is 12500n). */
export function toThousandths(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole, fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  const value = BigInt(whole || '0') * 1000n + BigInt((fraction + '000').slice(0, 3));
  return negative ? -value : value;
}

/** Thousandths as a decimal string with 3 decimals (12500n is `"12.500"`). */
export function formatThousandths(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(4, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -3)}.${digits.slice(-3)}`;
}
