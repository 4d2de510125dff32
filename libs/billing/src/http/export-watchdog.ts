import type { Response } from 'express';

export type ExportCut = 'stalled' | 'deadline';

export interface ExportBounds {
  /** A response whose client takes nothing for this long is cut. */
  stallTimeoutMs: number;
  /** The longest a whole export may stream. */
  maxDurationMs: number;
}

/**
 * Watches a streaming export and cuts it when its client stops reading for
 * `stallTimeoutMs` (the response wants to write and the socket takes nothing: Node's
 * `writableNeedDrain`) or when it has streamed for `maxDurationMs`. Cutting destroys the
 * response, hence its socket; the pipeline then destroys the cursor, which closes its
 * database connection (PostgresChargeExportSource). A client that reads slowly but reads
 * is never cut before the wall-clock bound; a slow database (nothing to write) is no stall.
 * Stalls are checked ten times per stall timeout (at most every second), so a stall cut
 * comes at most a tenth of the timeout (or a second) after its bound; the wall-clock bound
 * has a timer of its own, so an export is cut when it is reached, not up to a check later
 * (a client reading steadily would otherwise get up to a second more of the export).
 */
export function watchExport(
  response: Response,
  bounds: ExportBounds,
  onCut: (reason: ExportCut, afterMs: number) => void,
): void {
  const startedAt = Date.now();
  let blockedSince: number | null = null;
  const unblock = () => (blockedSince = null);
  const check = () => {
    if (response.destroyed || response.writableFinished) return stop();
    const now = Date.now();
    if (response.writableNeedDrain) blockedSince ??= now;
    else blockedSince = null;
    let reason: ExportCut | null = null;
    if (blockedSince !== null && now - blockedSince >= bounds.stallTimeoutMs) reason = 'stalled';
    else if (now - startedAt >= bounds.maxDurationMs) reason = 'deadline';
    if (reason) cut(reason, now);
  };
  const cut = (reason: ExportCut, now: number) => {
    stop();
    onCut(reason, now - startedAt);
    response.destroy();
  };
  const timer = setInterval(check, Math.min(1_000, Math.max(10, bounds.stallTimeoutMs / 10)));
  timer.unref();
  const deadline = setTimeout(() => {
    if (response.destroyed || response.writableFinished) return stop();
    cut('deadline', Date.now());
  }, bounds.maxDurationMs);
  deadline.unref();
  function stop(): void {
    clearInterval(timer);
    clearTimeout(deadline);
    response.off('drain', unblock);
  }
  // No 'close' listener (a response carries many already): the next check after the end
  // stops the timer.
  response.on('drain', unblock);
}
