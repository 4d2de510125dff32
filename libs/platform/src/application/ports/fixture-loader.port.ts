/**
 * One section of the fixtures file (`users`, `contracts`, ...). Loaders run in ascending
 * `order` inside one transaction; each must be idempotent for explicit ids.
 */
/** What a section loaded, as `manage fixtures:load` prints it. */
export interface FixtureSummary {
  count: number;
  ids: number[];
  /** Rows loaded beside the section's own (a contract's daily charges). */
  charges?: number;
}

export abstract class FixtureLoader {
  abstract readonly section: string;
  abstract readonly order: number;
  /** Loads the section's rows; returns a summary printed by `manage fixtures:load`. */
  abstract load(rows: unknown[]): Promise<FixtureSummary>;
}
