import { randomBytes } from 'node:crypto';

/** The processes of this service that open pools on the database. */
export type PoolProcessRole = 'api' | 'worker' | 'manage';

/**
 * Every process names its connections `gpumarket-<role> <id>` (PostgreSQL's
 * application_name), so the start-up budget can count the processes really connected, and
 * an operator can tell them apart in pg_stat_activity. The id is random per process: a
 * host name and pid may not fit the 63 characters PostgreSQL keeps.
 */
export function connectionName(role: PoolProcessRole): string {
  return `gpumarket-${role} ${PROCESS_ID}`;
}

const PROCESS_ID = randomBytes(4).toString('hex');

/** Counts api and worker processes among the application names connected to a server. */
export function countProcesses(applicationNames: readonly string[]): {
  api: number;
  worker: number;
} {
  const seen = { api: new Set<string>(), worker: new Set<string>() };
  for (const name of applicationNames) {
    const match = /^gpumarket-(api|worker) ([0-9a-f]+)$/.exec(name);
    if (match) seen[match[1] as 'api' | 'worker'].add(match[2]);
  }
  return { api: seen.api.size, worker: seen.worker.size };
}

export interface ServerSlots {
  maxConnections: number;
  /** superuser_reserved_connections (+ reserved_connections from PostgreSQL 16). */
  reserved: number;
}

export interface PoolBudgetInput {
  /** DATABASE_POOL_MAX: each process's pool on the primary, and each api's on the replica. */
  poolMax: number;
  /** DATABASE_POOL_PROCESSES when set: the api and worker processes planned in all. */
  declaredProcesses: number | null;
  /** api and worker processes connected to the primary now (this one included). */
  connected: { api: number; worker: number };
  primary: ServerSlots;
  /** The replica's slots when DATABASE_REPLICA_URL is set and answered. */
  replica: ServerSlots | null;
}

export interface PoolBudgetReport {
  fits: boolean;
  text: string;
}

/**
 * The start-up line on the connection budget (docs/operations.md "Connection budget"):
 * every api and worker process may open DATABASE_POOL_MAX connections on the primary, plus
 * one for the migration step; every api process as many on the replica. Compared with what
 * the servers take (max_connections less the reserved slots; WAL senders have their own
 * slots since PostgreSQL 12), and, when it does not fit, what to change and to what.
 */
export function poolBudget(input: PoolBudgetInput): PoolBudgetReport {
  const { poolMax, declaredProcesses, connected, primary, replica } = input;
  const counted = connected.api + connected.worker;
  const processes = Math.max(declaredProcesses ?? 0, counted, 1);
  const needed = poolMax * processes + 1;
  const usable = primary.maxConnections - primary.reserved;
  const source =
    declaredProcesses === null
      ? `${counted} connected now: ${connected.api} api, ${connected.worker} worker; DATABASE_POOL_PROCESSES unset`
      : `DATABASE_POOL_PROCESSES ${declaredProcesses}; ${connected.api} api, ${connected.worker} worker connected now`;
  const parts = [
    `Database pool budget: ${poolMax} per process x ${processes} processes (${source}) + 1 for migrations = ${needed} ` +
      `of ${usable} usable connections on the primary (max_connections ${primary.maxConnections}, ${primary.reserved} reserved)`,
  ];
  const fixes: string[] = [];
  if (needed > usable) {
    const fittingPool = Math.floor((usable - 1) / processes);
    fixes.push(
      `the primary does not fit it: ${fittingPool >= 1 ? `lower DATABASE_POOL_MAX to ${fittingPool}, ` : ''}` +
        `raise max_connections to ${needed + primary.reserved} or put PgBouncer in front`,
    );
  }
  if (declaredProcesses !== null && counted > declaredProcesses) {
    fixes.push(
      `${counted} processes are connected: raise DATABASE_POOL_PROCESSES to at least ${counted}`,
    );
  }
  if (replica) {
    const apiProcesses = Math.max(connected.api, 1);
    const replicaNeeded = poolMax * apiProcesses;
    const replicaUsable = replica.maxConnections - replica.reserved;
    parts.push(
      `replica: ${poolMax} per api process x ${apiProcesses} = ${replicaNeeded} of ${replicaUsable} usable ` +
        `(max_connections ${replica.maxConnections}, ${replica.reserved} reserved)`,
    );
    if (replicaNeeded > replicaUsable) {
      fixes.push(
        `the replica does not fit it: raise its max_connections to ${replicaNeeded + replica.reserved} or lower DATABASE_POOL_MAX`,
      );
    }
  }
  const text = parts.join('; ');
  return fixes.length === 0
    ? { fits: true, text }
    : { fits: false, text: `${text}: ${fixes.join('; ')}` };
}
