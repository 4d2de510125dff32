/** Reading a process's Prometheus exposition (its metrics listener) in tests. */

/**
 * The sum of the samples of `name` whose labels include `labels`, 0 when the series does
 * not exist yet.
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1], label[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value))
      total += Number(match[3]);
  }
  return total;
}

/** GET /metrics on a process's metrics listener (never its public port), checked to be 200. */
export async function scrape(process: { metricsUrl: string }): Promise<string> {
  const response = await fetch(`${process.metricsUrl}/metrics`);
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return response.text();
}
