import { Budget, formatThousandths, toThousandths } from './budget';
import { PeriodWindow } from './budget-period';

/** Where a budget stands in its current period. */
export interface BudgetStatus {
  period: PeriodWindow;
  /** Decimal strings with 3 decimals. */
  spent: string;
  /** amount - spent: negative once the budget is overspent. */
  remaining: string;
  forecast: string;
  forecastMethod: 'linear';
  /** The thresholds the spent has reached, ascending. */
  crossed: number[];
}

/**
 * Whether `spent` has reached `threshold` percent of `amount`: spent >= amount * t / 100,
 * compared exactly (in thousandths of a dollar, times 100).
 */
export function thresholdReached(amount: string, spent: string, threshold: number): boolean {
  return toThousandths(spent) * 100n >= toThousandths(amount) * BigInt(threshold);
}

/** The budget's thresholds that `spent` has reached, ascending. */
export function crossedThresholds(
  budget: Pick<Budget, 'amount' | 'thresholds'>,
  spent: string,
): number[] {
  return budget.thresholds.filter((threshold) => thresholdReached(budget.amount, spent, threshold));
}

/**
 * The linear forecast of the period's spend: what was spent over the elapsed part of the
 * period, extended at the same rate to its end (spent * length / elapsed), rounded half
 * away from zero to 3 decimals. At the very start of a period (nothing elapsed) it is the
 * spent itself.
 */
export function linearForecast(spent: string, period: PeriodWindow, nowMs: number): string {
  const length = BigInt(period.end.getTime() - period.start.getTime());
  const elapsed = BigInt(Math.min(Math.max(nowMs - period.start.getTime(), 0), Number(length)));
  const value = toThousandths(spent);
  if (elapsed === 0n) return formatThousandths(value);
  const scaled = value * length;
  const quotient = scaled / elapsed;
  const rest = scaled % elapsed;
  return formatThousandths(rest * 2n >= elapsed ? quotient + 1n : quotient);
}

export function budgetStatus(
  budget: Pick<Budget, 'amount' | 'thresholds'>,
  period: PeriodWindow,
  spent: string,
  nowMs: number,
): BudgetStatus {
  return {
    period,
    spent,
    remaining: formatThousandths(toThousandths(budget.amount) - toThousandths(spent)),
    forecast: linearForecast(spent, period, nowMs),
    forecastMethod: 'linear',
    crossed: crossedThresholds(budget, spent),
  };
}
