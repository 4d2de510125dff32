import { CounterName, Metrics } from '../application/ports/metrics.port';

/** Records counter increments in order, one entry for each unit counted. */
export class RecordingMetrics extends Metrics {
  readonly counts: Array<{ name: CounterName; labels: Record<string, string> }> = [];

  increment(name: CounterName, labels: Record<string, string> = {}, by = 1): void {
    for (let i = 0; i < by; i += 1) this.counts.push({ name, labels });
  }

  /** How many units of `name` were counted with labels that include `labels`. */
  total(name: CounterName, labels: Record<string, string> = {}): number {
    return this.counts.filter(
      (count) =>
        count.name === name &&
        Object.entries(labels).every(([key, value]) => count.labels[key] === value),
    ).length;
  }
}
