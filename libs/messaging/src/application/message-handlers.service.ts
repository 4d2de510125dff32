import { Injectable } from '@nestjs/common';

/** Which attempt of its job a handler runs: 1 for the first. */
export interface JobAttempt {
  attempt: number;
  maxAttempts: number;
}

/**
 * Runs one attempt of a job of the message queue: reads what the job names, words the
 * message and hands it to the `MessageSender`. A throw is a failed attempt, retried with
 * backoff; the answer is only logged.
 */
export type MessageJobHandler = (data: object, attempt: JobAttempt) => Promise<unknown>;

/**
 * Queues again, every `everySeconds`, the messages whose job may have been lost between
 * the commit that promised them and the queue (a crash, Redis away); answers how many.
 * What is pending is the sender's to know (a row of its own): messaging only runs it.
 */
export interface RequeueSweep {
  /** Said in the log line of a pass that queued something ("pending security notices"). */
  what: string;
  everySeconds: number;
  run(): Promise<number>;
}

/**
 * What the message worker runs, registered by the contexts that send messages (in their
 * worker module's `onModuleInit`): one handler per job name, and their requeue sweeps.
 */
@Injectable()
export class MessageHandlers {
  private readonly handlers = new Map<string, MessageJobHandler>();
  private readonly registeredSweeps: RequeueSweep[] = [];

  handle<Data extends object>(
    jobName: string,
    handler: (data: Data, attempt: JobAttempt) => Promise<unknown>,
  ): void {
    if (this.handlers.has(jobName))
      throw new Error(`message job ${jobName} has two handlers; job names are unique`);
    this.handlers.set(jobName, handler as MessageJobHandler);
  }

  sweep(sweep: RequeueSweep): void {
    this.registeredSweeps.push(sweep);
  }

  handlerOf(jobName: string): MessageJobHandler | undefined {
    return this.handlers.get(jobName);
  }

  sweeps(): readonly RequeueSweep[] {
    return this.registeredSweeps;
  }
}
