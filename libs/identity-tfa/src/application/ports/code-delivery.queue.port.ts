import type { FirstAttemptReport } from '@app/messaging';

export type { FirstAttemptReport };

/** The job: which challenge and which send; the code is read (encrypted) from the challenge. */
export interface CodeDeliveryJob {
  challengeKey: string;
  sendNumber: number;
}

/** Its name on the message queue. */
export const CODE_DELIVERY_JOB = 'deliver-code';

/** The idempotency key of one send: its job id and its delivery ledger entry. */
export function deliveryKey(job: CodeDeliveryJob): string {
  return `${job.challengeKey}-${job.sendNumber}`;
}

export abstract class CodeDeliveryQueue {
  /** Queues the send, then waits a short, configured time for its first attempt. */
  abstract enqueue(job: CodeDeliveryJob): Promise<FirstAttemptReport>;
}
