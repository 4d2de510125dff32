import { ConfigReader, Environment, PlatformConfig } from '@app/platform';
import { ExportSettings } from '../domain/charge-export';

/**
 * EXPORTS_IN_FLIGHT, EXPORTS_IN_FLIGHT_PER_USER, EXPORT_STALL_TIMEOUT_MS and
 * EXPORT_MAX_DURATION_MS (docs/billing.md "Export limits"). Exports may never hold every
 * connection of the pool: the budget must leave at least one to the other routes.
 */
export function loadExportSettings(env: Environment, platform: PlatformConfig): ExportSettings {
  const read = new ConfigReader(env);
  const settings = new ExportSettings();
  settings.inFlight = read.integer('EXPORTS_IN_FLIGHT', 2, 1, 1000);
  settings.inFlightPerUser = read.integer('EXPORTS_IN_FLIGHT_PER_USER', 1, 1, 1000);
  settings.stallTimeoutMs = read.integer('EXPORT_STALL_TIMEOUT_MS', 15_000, 100, 3_600_000);
  settings.maxDurationMs = read.integer('EXPORT_MAX_DURATION_MS', 600_000, 1_000, 86_400_000);
  if (settings.inFlight >= platform.database.poolMax)
    read.problem(
      `EXPORTS_IN_FLIGHT (${settings.inFlight}) must be below DATABASE_POOL_MAX (${platform.database.poolMax}): exports must leave connections to the other routes`,
    );
  read.done();
  return settings;
}
