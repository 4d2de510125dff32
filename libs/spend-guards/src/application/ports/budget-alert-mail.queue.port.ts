/** The job: which alert's mail to send; the worker reads the rest from the database. */
export interface BudgetAlertMailJob {
  alertId: number;
}

/** Its name on the message queue. */
export const BUDGET_ALERT_MAIL_JOB = 'deliver-budget-alert';

/** The mail's job id: one per alert, so a retried enqueue or a sweep never queues it twice. */
export function budgetAlertJobKey(job: BudgetAlertMailJob): string {
  return `budget-alert-${job.alertId}`;
}

/** The delivery ledger's key of the alert's mail to one address: one send per recipient. */
export function budgetAlertSendKey(job: BudgetAlertMailJob, recipient: number): string {
  return `budget-alert-${job.alertId}-to-${recipient}`;
}

export abstract class BudgetAlertMailQueue {
  /** Queues the mail's job on the message queue (a job still known is not queued twice). */
  abstract enqueue(job: BudgetAlertMailJob): Promise<void>;
}
