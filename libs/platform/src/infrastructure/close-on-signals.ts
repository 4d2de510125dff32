/** Nest applications accept the signal so hooks can tell a signal-driven shutdown apart. */
interface Closable {
  close(signal?: string): Promise<void>;
}

/**
 * SIGTERM/SIGINT: run the application's shutdown hooks (readiness turns to draining, the
 * server stops accepting and finishes in-flight requests, workers finish running jobs,
 * connections close), then exit 0. A second signal forces the exit.
 */
export function closeOnSignals(
  app: Closable,
  signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'],
): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    app.close(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error during shutdown:', error);
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
}
