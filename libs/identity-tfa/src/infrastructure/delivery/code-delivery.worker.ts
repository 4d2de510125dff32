import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { Metrics, QueueRegistry } from '@app/platform';
import { CodeDeliveryJob } from '../../application/ports/code-delivery.queue.port';
import { DeliverCodeUseCase } from '../../application/deliver-code.use-case';
import { TfaSettings } from '../../application/tfa-settings';
import { CODE_DELIVERY_QUEUE } from './bullmq-code-delivery.queue';

/** Thin BullMQ processor: each job is one DeliverCodeUseCase run. */
@Injectable()
export class CodeDeliveryWorker implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CodeDeliveryWorker');
  private worker?: Worker<CodeDeliveryJob>;

  constructor(
    private readonly queues: QueueRegistry,
    private readonly deliverCode: DeliverCodeUseCase,
    private readonly metrics: Metrics,
    private readonly settings: TfaSettings,
  ) {}

  onModuleInit(): void {
    this.worker = new Worker<CodeDeliveryJob>(
      CODE_DELIVERY_QUEUE,
      (job: Job<CodeDeliveryJob>) => this.deliverCode.execute(job.data),
      { connection: this.queues.workerConnectionOptions(CODE_DELIVERY_QUEUE), concurrency: 8 },
    );
    this.worker.on('failed', (job, error) => {
      this.logger.warn(`Delivery job ${job?.id ?? '?'} failed: ${error.message}`);
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        this.metrics.increment('code_delivery_failures_total', {
          channel: 'unknown',
          provider: this.settings.deliveryProvider,
        });
    });
    this.worker.on('error', () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    // Lets the running jobs finish, takes no new ones.
    await this.worker?.close();
  }
}
