import { BudgetAlert, BudgetAlertNotice, NewBudgetAlert } from '../../domain/budget-alert';

/**
 * The thresholds budgets crossed, one row per (budget, period start, threshold), each with
 * the state of its mail. Joins the caller's unit of work.
 */
export abstract class BudgetAlertRepository {
  /**
   * Inserts the alert unless the budget already has one for this period and threshold
   * (`ON CONFLICT DO NOTHING`): the new alert with its mail pending, or null. Two
   * evaluators racing get one row between them.
   */
  abstract insertOnce(alert: NewBudgetAlert): Promise<BudgetAlert | null>;

  /** The budget's alerts, newest first. */
  abstract listByBudget(budgetId: number, limit: number): Promise<BudgetAlert[]>;

  /** The alert and its budget while its mail is owed; null once sent, abandoned or gone. */
  abstract findPendingMail(alertId: number): Promise<BudgetAlertNotice | null>;

  /** False when the mail was no longer pending. */
  abstract markMailSent(alertId: number, at: Date): Promise<boolean>;

  /** Given up (refused for good, or nobody to send it to). */
  abstract markMailAbandoned(alertId: number, at: Date): Promise<boolean>;

  /** Ids of alerts whose mail is pending since before `createdBefore`, oldest first. */
  abstract pendingMailSince(createdBefore: Date, limit: number): Promise<number[]>;
}
