import { ConfigError, Environment, loadPlatformConfig } from '@app/platform';
import { loadExportSettings } from './export-settings';

const load = (vars: Record<string, string>) => {
  const env = new Environment(vars);
  return loadExportSettings(env, loadPlatformConfig(env));
};

describe('loadExportSettings', () => {
  it('defaults to 2 exports per process, 1 per user, 15 s stall, 10 minutes in all', () => {
    expect({ ...load({}) }).toEqual({
      inFlight: 2,
      inFlightPerUser: 1,
      stallTimeoutMs: 15_000,
      maxDurationMs: 600_000,
    });
  });

  it('refuses a budget that could take every connection of the pool', () => {
    expect(() => load({ EXPORTS_IN_FLIGHT: '10' })).toThrow(ConfigError);
    expect(() => load({ EXPORTS_IN_FLIGHT: '10' })).toThrow(
      /EXPORTS_IN_FLIGHT \(10\) must be below DATABASE_POOL_MAX \(10\)/,
    );
    expect(load({ EXPORTS_IN_FLIGHT: '10', DATABASE_POOL_MAX: '20' }).inFlight).toBe(10);
  });
});
