import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { Lifecycle, PlatformConfig } from '@app/platform';

/** Readiness goes down the moment a shutdown starts, before the server stops accepting. */
@Injectable()
export class DrainOnShutdown implements BeforeApplicationShutdown {
  constructor(
    private readonly lifecycle: Lifecycle,
    private readonly config: PlatformConfig,
  ) {}

  async beforeApplicationShutdown(signal?: string): Promise<void> {
    this.lifecycle.draining = true;
    if (signal && this.config.shutdownGraceMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.config.shutdownGraceMs));
    }
  }
}
