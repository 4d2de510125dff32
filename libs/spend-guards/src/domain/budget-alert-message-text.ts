import { BudgetAlertNotice } from './budget-alert';

/** An alert as its email says it: what messaging's MessageContent carries. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

const PERIOD_NAMES = { day: 'day', week: 'week', month: 'month' } as const;

/** `2026-03-01` (periods start and end at UTC midnights). */
function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * A budget's name as a mail may show it: its owner chose it, so it is one line of
 * printable characters (controls and format characters become `?`), in quotes that it
 * cannot close.
 */
function quotedName(name: string): string {
  const printable = name
    .replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/gu, '?')
    .replace(/\p{Zs}+/gu, ' ')
    .trim();
  return `"${printable.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/**
 * The wording of a budget alert (docs/spend-guards.md "Alerts"): which budget, which
 * threshold, the spent against the amount in which period. Built from the alert alone.
 */
export function budgetAlertContent(brand: string, notice: BudgetAlertNotice): EmailContent {
  const { alert, budget } = notice;
  const name = quotedName(budget.name);
  const lastDay = new Date(alert.periodEnd.getTime() - 86_400_000);
  const headline = `${brand} budget alert: ${name} reached ${alert.threshold}%`;
  const sentence =
    `Your budget ${name} reached ${alert.threshold}% of its amount: $${alert.spent} spent ` +
    `of $${alert.amount} this ${PERIOD_NAMES[budget.period]} ` +
    `(${utcDay(alert.periodStart)} to ${utcDay(lastDay)}, UTC).`;
  const footer =
    "Spent is the sum of the billed amounts of the period's charges, as the charges statement shows them. " +
    'Change or delete the budget with `gpumkt budgets update` or `gpumkt budgets delete`.';
  return {
    subject: headline,
    text: [sentence, '', footer].join('\n'),
    html: [
      '<!doctype html>',
      '<html><body style="font-family:sans-serif">',
      `<p>${escapeHtml(sentence)}</p>`,
      `<p style="color:#666">${escapeHtml(footer)}</p>`,
      '</body></html>',
    ].join('\n'),
  };
}
