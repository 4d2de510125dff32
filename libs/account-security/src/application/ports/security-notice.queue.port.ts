/** The job: which event's notice to send; the worker reads the rest from the database. */
export interface SecurityNoticeJob {
  eventId: number;
}

/** Its name on the message queue. */
export const SECURITY_NOTICE_JOB = 'deliver-notice';

/**
 * The notice's job id and delivery ledger key: one per event, so a retried enqueue, a
 * sweep and a taken-over job never send it twice.
 */
export function noticeDeliveryKey(job: SecurityNoticeJob): string {
  return `notice-${job.eventId}`;
}

export abstract class SecurityNoticeQueue {
  /**
   * Queues the notice on the message queue. With `awaitFirstAttempt`, then waits up
   * to the configured first-attempt time (as a code send does), so the mail is usually out
   * when the change is answered.
   */
  abstract enqueue(job: SecurityNoticeJob, options: { awaitFirstAttempt: boolean }): Promise<void>;
}
