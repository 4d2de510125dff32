/**
 * A job of the message queue: its name picks the handler that runs it (registered with
 * `MessageHandlers`), its key is its job id and the key of its send in the delivery
 * ledger. The data says which message to send, never what it says: a job holds no code
 * and no secret, the handler reads them when it runs.
 */
export interface MessageJob<Data extends object = object> {
  name: string;
  key: string;
  data: Data;
}

/**
 * What the requester learned of the first delivery attempt while it waited: sent;
 * pending (still trying, not waited for, or no answer in time); or failed for good with
 * the provider's wire code (twilio_error, twilio_rate_limited, email_rejected, ...).
 */
export type FirstAttemptReport =
  { state: 'sent' } | { state: 'pending' } | { state: 'failed'; code: string };

/** Attempts of one job, the first included, and its first retry's delay (doubling after). */
export interface MessageRetry {
  attempts: number;
  backoffMs: number;
}

export abstract class MessageQueue {
  /**
   * Queues the job (a second enqueue of a job still known is a no-op). With
   * `awaitFirstAttempt`, then waits up to DELIVERY_FIRST_ATTEMPT_WAIT_MS for the first
   * attempt and answers what it did. `retry` replaces DELIVERY_MAX_ATTEMPTS and
   * DELIVERY_BACKOFF_MS for this job (a sender whose receivers may be away for longer than
   * a provider's blip, as webhooks' are).
   */
  abstract enqueue(
    job: MessageJob,
    options: { awaitFirstAttempt: boolean; retry?: MessageRetry },
  ): Promise<FirstAttemptReport>;
}
