/** The job: which challenge and which send; the code is read (encrypted) from the challenge. */
export interface CodeDeliveryJob {
  challengeKey: string;
  sendNumber: number;
}

export abstract class CodeDeliveryQueue {
  abstract enqueue(job: CodeDeliveryJob): Promise<void>;
}
