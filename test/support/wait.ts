import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a test waits for something the system does asynchronously (a delivery, a
 * worker's metric, a queue draining) before it fails. Generous on purpose: under load (a
 * 2-core machine with both cores busy elsewhere) a step that takes 20 ms idle can take
 * seconds. A wait ends as soon as its condition holds, so a long limit costs nothing when
 * things work. TEST_CONDITION_TIMEOUT_MS overrides it.
 */
export const CONDITION_TIMEOUT_MS = Number(process.env.TEST_CONDITION_TIMEOUT_MS ?? 45_000);

export interface WaitOptions {
  /** What is awaited, for the failure message. */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until `accept` holds and returns that value; fails naming `what` and the
 * last value seen when the condition still does not hold after the timeout.
 */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  accept: (value: T) => boolean,
  { what, timeoutMs = CONDITION_TIMEOUT_MS, intervalMs = 25 }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() >= deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${describe(value)}`,
      );
    }
    await sleep(intervalMs);
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value);
  } catch {
    return String(value);
  }
}
