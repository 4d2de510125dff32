import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { SweepSecurityNoticesUseCase } from '../../application/sweep-security-notices.use-case';
import { TfaSettings } from '../../domain/tfa-policy';

/**
 * Runs the notice sweep every TFA_NOTICE_RETRY_SECONDS in each worker (the api's own, or
 * apps/worker): several workers sweeping at once queue nothing twice (one job id per event).
 */
@Injectable()
export class SecurityNoticeSweeper implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('SecurityNoticeSweeper');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly sweep: SweepSecurityNoticesUseCase,
    private readonly settings: TfaSettings,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.pass(), this.settings.noticeRetrySeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async pass(): Promise<void> {
    // A pass that outlives the interval (the database or Redis slow) is not overlapped.
    if (this.running) return;
    this.running = true;
    try {
      const queued = await this.sweep.execute();
      if (queued > 0) this.logger.log(`queued ${queued} pending security notices again`);
    } catch (error) {
      this.logger.warn(`security notice sweep failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
