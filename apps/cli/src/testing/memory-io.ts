import { Io } from '../io';

/**
 * An in-memory Io for unit tests: captured output, a fixed clock, recorded sleeps, and the
 * interrupt clean-ups registered at the moment.
 */
export function memoryIo(env: NodeJS.ProcessEnv = {}, now = new Date('2025-11-10T12:00:00Z')) {
  const out: string[] = [];
  const err: string[] = [];
  const sleeps: number[] = [];
  /** Clean-ups registered for an interrupt, as a test can run them. */
  const interrupts: Array<() => void> = [];
  const io: Io = {
    stdout: { write: (text) => void out.push(text), isTTY: false },
    stderr: { write: (text) => void err.push(text), isTTY: false },
    stdinIsTTY: false,
    env,
    now: () => now,
    sleep: async (ms) => void sleeps.push(ms),
    readLine: async () => null,
    readHidden: async () => null,
    readAll: async () => '',
    onInterrupt: (cleanUp) => {
      interrupts.push(cleanUp);
      return () => interrupts.splice(interrupts.indexOf(cleanUp), 1);
    },
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join(''), sleeps, interrupts };
}
