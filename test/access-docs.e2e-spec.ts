import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccessCatalog, RouteAccessEntry } from '@app/platform';
import { ROOT, startApi, TestApi } from '@test/support/api';

const DOC = join(ROOT, 'docs', 'access.md');
const BEGIN = '<!-- route table: written from the @Access decorators by `npm run access:write` -->';
const END = '<!-- end of route table -->';

/** What the audit log keeps of a route's requests. */
function audited(entry: RouteAccessEntry): string {
  if (entry.method !== 'GET') return 'each write';
  return entry.audited ? 'each export' : '-';
}

/** docs/access.md's table of routes: the catalog the api builds from the decorators at start. */
function routeTable(entries: readonly RouteAccessEntry[]): string {
  const rows = entries.map(
    (entry) =>
      `| ${entry.method} | \`${entry.path}\` | \`${entry.category}\` | \`${entry.route}\` | ${audited(entry)} |`,
  );
  return [
    '| Method | Path | Category | Name in permission documents | Audit log |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/**
 * docs/access.md lists every route with its category and name, as the route decorators
 * declare them; like docs/openapi.json, the committed table must be the one the running
 * api gives (ACCESS_DOCS_WRITE=1, `npm run access:write`, rewrites it).
 */
describe('docs/access.md', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('has the route table the @Access decorators give', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const live = `${BEGIN}\n\n${routeTable(api.app.get(AccessCatalog).entries())}\n\n`;
    const updated = text.slice(0, start) + live + text.slice(end);
    if (process.env.ACCESS_DOCS_WRITE === '1') writeFileSync(DOC, updated);
    expect(readFileSync(DOC, 'utf8')).toBe(updated);
  });
});
