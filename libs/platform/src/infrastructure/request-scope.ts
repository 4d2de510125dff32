import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A write a request owes the database (its audit entry): paid by the first transaction the
 * request commits, just before that commit, so it commits with the request's first change;
 * a request that commits none pays it another way (see AccessGuard).
 */
export interface OwedWrite {
  readonly write: () => Promise<void>;
  /** Written (or being written), or given up: never paid twice. */
  settled: boolean;
}

interface RequestScope {
  owed: OwedWrite | null;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs the rest of a request's handling (`next`) in a scope of its own. */
export function inRequestScope(next: () => void): void {
  scopes.run({ owed: null }, next);
}

/** The current request owes `write`; null outside a request scope. */
export function oweWrite(write: () => Promise<void>): OwedWrite | null {
  const scope = scopes.getStore();
  if (!scope) return null;
  scope.owed = { write, settled: false };
  return scope.owed;
}

/** The write the current request still owes, marked settled: the caller pays it. */
export function takeOwedWrite(): OwedWrite | null {
  const owed = scopes.getStore()?.owed;
  if (!owed || owed.settled) return null;
  owed.settled = true;
  return owed;
}
