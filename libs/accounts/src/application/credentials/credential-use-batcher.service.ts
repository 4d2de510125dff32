import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnModuleDestroy,
  OnModuleInit,
} from '@nestjs/common';
import { Clock, CredentialUseRecorder, Principal } from '@app/platform';
import { CredentialUse, CredentialUseRepository } from '../ports/credential-use.repository.port';

/** How often noted uses are written: the "last used" shown is at most this far behind. */
export const LAST_USED_FLUSH_MS = 5_000;
/** Past this many credentials noted, they are written at once. */
const MAX_PENDING = 5_000;

/**
 * The "last used" of keys and sessions (docs/access.md), noted in memory on the request
 * path (a Map entry per credential: no database write per request) and written every
 * LAST_USED_FLUSH_MS in one statement per kind, and once more when the process stops. A
 * write that fails is logged and the uses it carried are given up: the next use notes
 * them again.
 */
@Injectable()
export class CredentialUseBatcher
  extends CredentialUseRecorder
  implements OnModuleInit, BeforeApplicationShutdown, OnModuleDestroy
{
  private readonly logger = new Logger('CredentialUse');
  private pending = new Map<string, CredentialUse>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: CredentialUseRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  onModuleInit(): void {
    // Started here, outside any request, so its writes never join a request's context.
    this.timer = setInterval(() => void this.flush(), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  used(principal: Principal, address: string | null): void {
    this.pending.set(`${principal.credentialKind}:${principal.credentialId}`, {
      kind: principal.credentialKind,
      id: principal.credentialId,
      at: this.clock.now(),
      address,
    });
    if (this.pending.size >= MAX_PENDING) void this.flush();
  }

  /** Writes what was noted so far (one write at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const uses = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.repository.record(uses);
      } catch (error) {
        this.logger.warn(`last-used times not written: ${(error as Error).message}`);
      }
    });
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stop();
    await this.flush();
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
