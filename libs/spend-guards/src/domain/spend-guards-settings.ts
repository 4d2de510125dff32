/**
 * The deployment's budget settings, loaded and validated at boot
 * (infrastructure/spend-guards-config.ts; docs/spend-guards.md "Settings").
 */
export class BudgetSettings {
  /** CODE_MESSAGE_BRAND: the product's name in the wording of alerts. */
  messageBrand = 'GPU Marketplace';
  /** BUDGET_SWEEP_SECONDS: how often the worker evaluates every owner's budgets. */
  sweepSeconds = 60;
  /**
   * BUDGET_ALERT_RETRY_SECONDS: how often the worker looks for alert mails still unsent,
   * and how old an unsent one must be before it is queued again.
   */
  alertRetrySeconds = 60;
}
