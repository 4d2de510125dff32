export abstract class Clock {
  /** Milliseconds since the Unix epoch. */
  abstract nowMs(): number;

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  now(): Date {
    return new Date(this.nowMs());
  }
}
