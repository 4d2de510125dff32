export interface DemoSeedOptions {
  users: number;
  contracts: number;
  days: number;
  /** UTC midnight of the last charged day (unix seconds). */
  lastDay: number;
  /** Called as each phase advances: `done` of `total` `unit`. */
  onProgress?: (phase: string, done: number, total: number, unit: string) => void;
}

export interface DemoSeedSummary {
  users: number;
  contracts: number;
  charges: number;
  heavy_user_id: number;
  heavy_user_contracts: number;
  first_day: number;
  last_day: number;
  seconds: number;
}

/** Bulk synthetic dataset for demos and the charges benchmark (docs/billing.md). */
export abstract class DemoDataSeeder {
  abstract seed(options: DemoSeedOptions): Promise<DemoSeedSummary>;
}
