/** The job: which challenge and which send; the code is read (encrypted) from the challenge. */
export interface CodeDeliveryJob {
  challengeKey: string;
  sendNumber: number;
}

/** The idempotency key of one send: its job id and its delivery ledger entry. */
export function deliveryKey(job: CodeDeliveryJob): string {
  return `${job.challengeKey}-${job.sendNumber}`;
}

/**
 * What the requester learned of the first delivery attempt while it waited:
 * sent; pending (still trying, or no answer in time); or failed for good with the
 * provider's wire code (twilio_error, twilio_rate_limited, ...).
 */
export type FirstAttemptReport =
  { state: 'sent' } | { state: 'pending' } | { state: 'failed'; code: string };

export abstract class CodeDeliveryQueue {
  /** Queues the send, then waits a short, configured time for its first attempt. */
  abstract enqueue(job: CodeDeliveryJob): Promise<FirstAttemptReport>;
}
