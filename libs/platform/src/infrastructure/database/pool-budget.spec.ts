import { connectionName, countProcesses, poolBudget } from './pool-budget';

describe('connection names and the process count', () => {
  it('names each process by role and a per-process id that fits application_name', () => {
    expect(connectionName('api')).toMatch(/^gpumarket-api [0-9a-f]{8}$/);
    expect(connectionName('worker').length).toBeLessThanOrEqual(63);
  });

  it('counts distinct api and worker processes, not connections, and ignores the rest', () => {
    expect(
      countProcesses([
        'gpumarket-api 0a0a0a0a',
        'gpumarket-api 0a0a0a0a',
        'gpumarket-api 1b1b1b1b',
        'gpumarket-worker 2c2c2c2c',
        'gpumarket-manage 3d3d3d3d',
        'psql',
        '',
      ]),
    ).toEqual({ api: 2, worker: 1 });
  });
});

describe('poolBudget', () => {
  const primary = { maxConnections: 100, reserved: 3 };

  it('counts the processes connected when DATABASE_POOL_PROCESSES is unset (3, not a default 5)', () => {
    const report = poolBudget({
      poolMax: 10,
      declaredProcesses: null,
      connected: { api: 2, worker: 1 },
      primary,
      replica: null,
    });
    expect(report).toEqual({
      fits: true,
      text:
        'Database pool budget: 10 per process x 3 processes (3 connected now: 2 api, 1 worker; ' +
        'DATABASE_POOL_PROCESSES unset) + 1 for migrations = 31 of 97 usable connections on the ' +
        'primary (max_connections 100, 3 reserved)',
    });
  });

  it('takes the larger of the declared and the connected count, and asks for more when fewer are declared', () => {
    const planned = poolBudget({
      poolMax: 10,
      declaredProcesses: 6,
      connected: { api: 1, worker: 0 },
      primary,
      replica: null,
    });
    expect(planned.text).toContain(
      'x 6 processes (DATABASE_POOL_PROCESSES 6; 1 api, 0 worker connected now) + 1 for migrations = 61',
    );
    expect(planned.fits).toBe(true);
    const outgrown = poolBudget({
      poolMax: 10,
      declaredProcesses: 2,
      connected: { api: 3, worker: 1 },
      primary,
      replica: null,
    });
    expect(outgrown.fits).toBe(false);
    expect(outgrown.text).toMatch(
      /x 4 processes .*: 4 processes are connected: raise DATABASE_POOL_PROCESSES to at least 4$/,
    );
  });

  it('says what to change, and to what, when the primary does not fit', () => {
    const report = poolBudget({
      poolMax: 20,
      declaredProcesses: null,
      connected: { api: 4, worker: 2 },
      primary,
      replica: null,
    });
    expect(report.fits).toBe(false);
    // 6 x 20 + 1 = 121 > 97; 6 x 16 + 1 = 97 fits; 121 + 3 reserved = 124.
    expect(report.text).toMatch(
      /= 121 of 97 usable .*: the primary does not fit it: lower DATABASE_POOL_MAX to 16, raise max_connections to 124 or put PgBouncer in front$/,
    );
  });

  it('counts the replica pools of the api processes against the replica', () => {
    const fits = poolBudget({
      poolMax: 10,
      declaredProcesses: null,
      connected: { api: 3, worker: 2 },
      primary,
      replica: { maxConnections: 100, reserved: 3 },
    });
    expect(fits.text).toMatch(
      /; replica: 10 per api process x 3 = 30 of 97 usable \(max_connections 100, 3 reserved\)$/,
    );
    const small = poolBudget({
      poolMax: 10,
      declaredProcesses: null,
      connected: { api: 3, worker: 2 },
      primary,
      replica: { maxConnections: 20, reserved: 3 },
    });
    expect(small.fits).toBe(false);
    expect(small.text).toMatch(
      /the replica does not fit it: raise its max_connections to 33 or lower DATABASE_POOL_MAX$/,
    );
  });
});
