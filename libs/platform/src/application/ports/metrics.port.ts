/** Counters the contexts report; exposed by the platform at GET /metrics. */
export type CounterName =
  | 'tfa_verifications_total'
  | 'tfa_lockouts_total'
  | 'code_delivery_attempts_total'
  | 'code_delivery_failures_total'
  | 'rate_limit_refusals_total'
  | 'concurrency_refusals_total'
  | 'charges_export_cuts_total'
  | 'budget_sweep_passes_total'
  | 'budget_alerts_total';

export abstract class Metrics {
  abstract increment(name: CounterName, labels?: Record<string, string>, by?: number): void;
}
