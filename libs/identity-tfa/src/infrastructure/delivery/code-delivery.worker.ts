import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { JobProcessor, QueueRegistry, QueuedJob } from '@app/platform';
import { DeliverCodeUseCase } from '../../application/deliver-code.use-case';
import { DeliverSecurityNoticeUseCase } from '../../application/deliver-security-notice.use-case';
import { CodeDeliveryJob } from '../../application/ports/code-delivery.queue.port';
import { SecurityNoticeJob } from '../../application/ports/security-notice.queue.port';
import { DeliverySettings } from '../delivery-providers/delivery-settings';
import { CODE_DELIVERY_QUEUE } from './bullmq-code-delivery.queue';

/**
 * Thin processor (BullMQ, in-process when embedded): each job attempt is one
 * DeliverCodeUseCase or DeliverSecurityNoticeUseCase run, by the job's name.
 */
@Injectable()
export class CodeDeliveryWorker implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CodeDeliveryWorker');
  private worker?: JobProcessor;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly deliverCode: DeliverCodeUseCase,
    private readonly deliverNotice: DeliverSecurityNoticeUseCase,
    private readonly settings: DeliverySettings,
  ) {}

  onModuleInit(): void {
    this.worker = this.queues.process(
      CODE_DELIVERY_QUEUE,
      (job) => {
        const attempt = { attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 };
        return job.name === 'deliver-notice'
          ? this.deliverNotice.execute((job as QueuedJob<SecurityNoticeJob>).data, attempt)
          : this.deliverCode.execute((job as QueuedJob<CodeDeliveryJob>).data, attempt);
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
