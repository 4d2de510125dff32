/**
 * Waits for `work` at most `ms`; true when it settled (resolved or rejected) in time. The
 * timer does not keep the process alive, and a late rejection is swallowed: shutdown steps
 * use this to bound a close that waits on a dependency that is down.
 */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = work.then(
    () => true,
    () => true,
  );
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
