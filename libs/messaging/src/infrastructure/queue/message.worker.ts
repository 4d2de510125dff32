import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { JobProcessor, QueueRegistry } from '@app/platform';
import { MessageHandlers } from '../../application/message-handlers.service';
import { DeliverySettings } from '../delivery-settings';
import { MESSAGE_QUEUE } from './bullmq-message.queue';

/**
 * Thin processor (BullMQ, in-process when embedded): each job attempt is one run of the
 * handler its sender registered for the job's name. It starts once every module has
 * registered its handlers.
 */
@Injectable()
export class MessageWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MessageWorker');
  private worker?: JobProcessor;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly handlers: MessageHandlers,
    private readonly settings: DeliverySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = this.queues.process(
      MESSAGE_QUEUE,
      (job) => {
        const handler = this.handlers.handlerOf(job.name);
        if (!handler) throw new Error(`no handler for message job ${job.name}`);
        return handler(job.data, {
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? 1,
        });
      },
      {
        concurrency: 8,
        // A killed worker's jobs are taken over once their lock lapses.
        lockDurationMs: this.settings.jobLockMs,
        onFailed: (job, error) =>
          this.logger.warn(
            `Delivery job ${job.id} attempt ${job.attemptsMade} failed: ${error.message}`,
          ),
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    // Lets the running jobs finish, takes no new ones.
    await this.worker?.close();
  }
}
