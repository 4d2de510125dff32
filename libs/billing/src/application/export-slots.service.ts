import { Injectable } from '@nestjs/common';
import { AtCapacityError, Metrics, TooManyInFlightError } from '@app/platform';
import { ExportSettings } from '../domain/charge-export';

/** A taken slot; releasing it twice is harmless. */
export interface ExportSlot {
  release(): void;
}

/**
 * The exports this api process streams at once: at most EXPORTS_IN_FLIGHT in all and
 * EXPORTS_IN_FLIGHT_PER_USER per user. Each export holds a pooled database connection for
 * as long as it streams, so this budget is what keeps the rest of the pool for every other
 * route, however many exports are asked for. Counted in this process, like the other
 * in-flight caps: what it protects is this process's pool.
 */
@Injectable()
export class ExportSlots {
  private running = 0;
  private readonly perUser = new Map<number, number>();

  constructor(
    private readonly settings: ExportSettings,
    private readonly metrics: Metrics,
  ) {}

  /**
   * @throws TooManyInFlightError (429) when the user already streams their share;
   *         AtCapacityError (503) when the process streams as many as it allows
   */
  take(userId: number): ExportSlot {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.settings.inFlightPerUser) {
      this.metrics.increment('concurrency_refusals_total', { bucket: 'charges_export' });
      throw new TooManyInFlightError(this.settings.inFlightPerUser);
    }
    if (this.running >= this.settings.inFlight) {
      this.metrics.increment('concurrency_refusals_total', { bucket: 'charges_export_server' });
      throw new AtCapacityError(
        `This server is streaming as many exports as it allows (${this.settings.inFlight}); retry shortly.`,
      );
    }
    this.running += 1;
    this.perUser.set(userId, mine + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running -= 1;
        const left = (this.perUser.get(userId) ?? 1) - 1;
        if (left > 0) this.perUser.set(userId, left);
        else this.perUser.delete(userId);
      },
    };
  }

  /** Exports streaming now in this process (diagnostics and tests). */
  inFlight(): number {
    return this.running;
  }
}
