import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { QueueRegistry } from '@app/platform';
import { CodeDeliveryJob } from '../../application/ports/code-delivery.queue.port';
import { DeliverCodeUseCase } from '../../application/deliver-code.use-case';
import { DeliverySettings } from '../delivery-providers/delivery-settings';
import { CODE_DELIVERY_QUEUE } from './bullmq-code-delivery.queue';

/** Thin BullMQ processor: each job attempt is one DeliverCodeUseCase run. */
@Injectable()
export class CodeDeliveryWorker implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CodeDeliveryWorker');
  private worker?: Worker<CodeDeliveryJob>;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly deliverCode: DeliverCodeUseCase,
    private readonly settings: DeliverySettings,
  ) {}

  onModuleInit(): void {
    this.worker = new Worker<CodeDeliveryJob>(
      CODE_DELIVERY_QUEUE,
      (job: Job<CodeDeliveryJob>) =>
        this.deliverCode.execute(job.data, {
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? 1,
        }),
      {
        connection: this.queues.workerConnectionOptions(CODE_DELIVERY_QUEUE),
        concurrency: 8,
        // A killed worker's jobs are taken over once their lock lapses. BullMQ moves a job
        // back only after two stalled checks find it without a lock, so the checks run as
        // often as the lock lasts (BullMQ's own 30 s would delay a takeover by up to a minute
        // whatever DELIVERY_JOB_LOCK_MS says).
        lockDuration: this.settings.jobLockMs,
        stalledInterval: this.settings.jobLockMs,
      },
    );
    this.worker.on('failed', (job, error) => {
      this.logger.warn(
        `Delivery job ${job?.id ?? '?'} attempt ${job?.attemptsMade ?? '?'} failed: ${error.message}`,
      );
    });
    this.worker.on('error', () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    // Lets the running jobs finish, takes no new ones.
    await this.worker?.close();
  }
}
