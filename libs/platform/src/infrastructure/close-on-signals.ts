import { shutdownTracing } from './observability/tracing-state';

/** Nest applications accept the signal so hooks can tell a signal-driven shutdown apart. */
interface Closable {
  close(signal?: string): Promise<void>;
}

export interface CloseOnSignalsOptions {
  signals?: NodeJS.Signals[];
  /**
   * The longest the whole shutdown may take for this signal (grace period included); past
   * it the process says so on stderr and exits 1, whatever it was waiting for. Unbounded
   * when absent.
   */
  deadlineMs?: (signal: NodeJS.Signals) => number;
}

/**
 * SIGTERM/SIGINT: run the application's shutdown hooks (readiness turns to draining, the
 * server stops accepting and finishes in-flight requests, workers finish running jobs,
 * connections close), then exit 0. A second signal forces the exit, and so does the
 * deadline: an orchestrator's kill should never be what ends a hung shutdown.
 */
export function closeOnSignals(app: Closable, options: CloseOnSignalsOptions = {}): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    const deadlineMs = options.deadlineMs?.(signal);
    if (deadlineMs !== undefined) {
      setTimeout(() => {
        console.error(
          `Shutdown did not finish within ${deadlineMs} ms (a dependency is not answering); exiting.`,
        );
        process.exit(1);
      }, deadlineMs);
    }
    app
      .close(signal)
      // The last spans (this shutdown's requests and jobs included) leave before the exit.
      .then(() => shutdownTracing())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('Error during shutdown:', error);
          process.exit(1);
        },
      );
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) process.on(signal, onSignal);
}
