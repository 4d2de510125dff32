import { Clock } from '../application/ports/clock.port';

/** A clock that moves only when told to. */
export class ManualClock extends Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {
    super();
  }

  nowMs(): number {
    return this.current;
  }

  set(ms: number): void {
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
