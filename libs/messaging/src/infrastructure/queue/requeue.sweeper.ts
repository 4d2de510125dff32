import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { MessageHandlers, RequeueSweep } from '../../application/message-handlers.service';

/**
 * Runs each registered requeue sweep on its interval in each worker (the api's own, or
 * apps/worker): several workers sweeping at once queue nothing twice (a message's job id
 * is its send's key).
 */
@Injectable()
export class RequeueSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RequeueSweeper');
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly handlers: MessageHandlers) {}

  onApplicationBootstrap(): void {
    for (const sweep of this.handlers.sweeps()) {
      let running = false;
      const pass = async () => {
        // A pass that outlives the interval (the database or Redis slow) is not overlapped.
        if (running) return;
        running = true;
        try {
          await this.pass(sweep);
        } finally {
          running = false;
        }
      };
      const timer = setInterval(() => void pass(), sweep.everySeconds * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  private async pass(sweep: RequeueSweep): Promise<void> {
    try {
      const queued = await sweep.run();
      if (queued > 0) this.logger.log(`queued ${queued} ${sweep.what} again`);
    } catch (error) {
      this.logger.warn(`sweep of ${sweep.what} failed: ${(error as Error).message}`);
    }
  }
}
