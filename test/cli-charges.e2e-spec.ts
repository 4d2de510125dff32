import { loadFixtures, startApi, TestApi } from '@test/support/api';
import { seedBulkCharges } from '@test/support/billing';
import { DataSource } from 'typeorm';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CliResult,
  rawDocument,
  runCli,
  runCliInTerminal,
  runCommandLine,
} from '@test/support/cli';

/** `gpumkt show invoices --charges` against the real charges report, on fixtures 70001-70199. */
const DAY = 86_400;
const D0 = 1_767_225_600; // 2026-01-01T00:00Z
const day = (n: number) => D0 + n * DAY;
/** Today (UTC) as a day number relative to D0. */
const RECENT = Math.floor((Date.now() / 1000 - D0) / DAY);
const USER = 70001;
const KEY = 'cli-charges-key-70001';

function contract(
  id: number,
  kind: 'instance' | 'volume',
  first: number,
  last: number,
  extra: Record<string, unknown>,
  type: 'gpu' | 'disk',
  amountPerDay: string,
) {
  const charges = [];
  for (let n = first; n <= last; n++) {
    charges.push({
      day: day(n),
      type,
      quantity: '1',
      unit: type === 'gpu' ? 'hours' : 'GB-days',
      rate: amountPerDay,
      amount: amountPerDay,
    });
  }
  return {
    id,
    user_id: USER,
    kind,
    start: day(first),
    end: day(last) + 3600,
    label: null,
    template_id: null,
    endpoint_id: null,
    workergroup_id: null,
    ...extra,
    charges,
  };
}

const FIXTURES = {
  users: [{ id: USER, email: 'cli-charges-70001@example.test', api_key: KEY, verified: true }],
  contracts: [
    contract(70101, 'instance', 0, 2, { label: 'train' }, 'gpu', '1.5'), // 4.500
    contract(70102, 'instance', 1, 3, { endpoint_id: 77 }, 'gpu', '0.25'), // 0.750
    contract(70103, 'instance', 2, 2, { endpoint_id: 77 }, 'gpu', '0.125'), // 0.125
    contract(70104, 'volume', 0, 4, {}, 'disk', '0.1'), // 0.500
    contract(70105, 'instance', 20, 21, {}, 'gpu', '9'), // outside the windows below
    // Within the last 7 days, whenever the test runs: for the window without dates.
    contract(70106, 'instance', RECENT - 3, RECENT - 2, {}, 'gpu', '2'),
    contract(70107, 'volume', RECENT - 2, RECENT - 1, {}, 'disk', '0.5'),
  ],
};

describe('gpumkt show invoices --charges', () => {
  let api: TestApi;
  const env = () => ({ GPUMKT_URL: api.url, GPUMKT_API_KEY: KEY, XDG_CONFIG_HOME: '/nonexistent' });
  const cli = (args: string[]) =>
    runCli(['show', 'invoices', '--charges', ...args], { env: env() });
  const ok = (result: CliResult): CliResult => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
    return result;
  };

  beforeAll(async () => {
    api = await startApi();
    await loadFixtures(api, FIXTURES);
  });
  afterAll(() => api.close());

  it('renders the table, the summary line, and the explained query of the date window', async () => {
    const result = ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05', '--explain']));
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^type\s+id\s+amount\s+start\s+end\s+endpoint\s+workergroup$/);
    expect(lines.slice(1, 5)).toEqual([
      expect.stringMatching(
        /^Instance\s+70101\s+\$4\.500\s+2026-01-01 00:00\s+2026-01-03 01:00\s+-\s+-$/,
      ),
      expect.stringMatching(
        /^Volume\s+70104\s+\$0\.500\s+2026-01-01 00:00\s+2026-01-05 01:00\s+-\s+-$/,
      ),
      expect.stringMatching(
        /^Instance\s+70102\s+\$0\.750\s+2026-01-02 00:00\s+2026-01-04 01:00\s+77\s+-$/,
      ),
      expect.stringMatching(
        /^Instance\s+70103\s+\$0\.125\s+2026-01-03 00:00\s+2026-01-03 01:00\s+77\s+-$/,
      ),
    ]);
    expect(result.stdout.endsWith('\nShowing 4 of 4\n')).toBe(true);
    expect(result.stderr).toContain(`[explain] GET ${api.url}/api/v0/charges/?select_filters=`);
    // -e includes the whole day: lte is 23:59:59 of 2026-01-05.
    expect(result.stderr).toContain(
      `query select_filters = {"day":{"gte":${day(0)},"lte":${day(5) - 1}}}`,
    );
    expect(result.stderr).toContain('query latest_first = false');
    expect(result.stderr).not.toContain(KEY);

    // The public client's name of the command gives the same report.
    const alias = ok(
      await runCli(['show', 'invoices-v1', '-c', '-s', '2026-01-01', '-e', '2026-01-05'], {
        env: env(),
      }),
    );
    expect(alias.stdout).toBe(ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05'])).stdout);
  });

  it('prints exactly one JSON document with --raw, and pages with -l and -t', async () => {
    const first = ok(
      await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-l', '3', '--raw', '--latest-first']),
    );
    const page = JSON.parse(first.stdout);
    expect(page).toMatchObject({ count: 3, total: 4, next_token: expect.any(String) });
    expect(page.results.map((entry: { source: string }) => entry.source)).toEqual([
      'volume-70104',
      'instance-70102',
      'instance-70101',
    ]);
    expect(first.stderr).toBe('');

    const human = ok(
      await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-l', '3', '--latest-first']),
    );
    // Dates were given, so the token alone continues (the api may sign each answer anew,
    // so the token printed here need not be the one of the --raw page).
    const footer =
      /\nShowing 3 of 4\nNext page token: (\S+) {2}\(pass it with -t, or use --all\)\n$/.exec(
        human.stdout,
      );
    expect(footer).not.toBeNull();
    for (const token of [page.next_token, footer![1]]) {
      const second = ok(
        await cli([
          '-s',
          '2026-01-01',
          '-e',
          '2026-01-05',
          '-l',
          '3',
          '--latest-first',
          '-t',
          token,
          '--raw',
        ]),
      );
      expect(JSON.parse(second.stdout)).toMatchObject({
        count: 1,
        total: 4,
        next_token: null,
        results: [expect.objectContaining({ source: 'instance-70103' })],
      });
    }

    const bad = await cli(['-s', '2026-01-01', '-t', 'garbage']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'Error 400 invalid_token: Invalid pagination token\n' +
        'Hint: a next page token only continues the listing it came from: repeat its -s and -e ' +
        '(as printed beside the token), -ct, -f and --latest-first.\n',
    );
  });

  it('without dates shows the last 7 days up to now, and says how to continue that window', async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = ok(await cli(['-l', '1', '--explain']));
    const after = Math.floor(Date.now() / 1000);
    const window = JSON.parse(/query select_filters = (\{.*\})\n/.exec(first.stderr)![1]) as {
      day: { gte: number; lte: number };
    };
    expect(window.day.lte).toBeGreaterThanOrEqual(before);
    expect(window.day.lte).toBeLessThanOrEqual(after);
    expect(window.day.lte - window.day.gte).toBe(7 * DAY);
    expect(first.stdout).toMatch(/^Instance\s+70106\s+\$4\.000\s/m);
    // The window ended "now": the hint spells it out so that -t finds the same listing.
    const hint =
      /^Next page token: (\S+) {2}\(pass it with -t plus -s (\d+) -e (\d+) to stay in this window, or use --all\)$/m.exec(
        first.stdout,
      );
    expect(hint).not.toBeNull();
    const [, token, gte, lte] = hint!;
    expect([Number(gte), Number(lte)]).toEqual([window.day.gte, window.day.lte]);
    const second = rawDocument<{ results: { source: string }[]; next_token: string | null }>(
      await cli(['-l', '1', '-s', gte, '-e', lte, '-t', token, '--raw']),
    );
    expect(second.results.map((entry) => entry.source)).toEqual(['volume-70107']);
    expect(second.next_token).toBeNull();
  });

  it('follows every page with --all, as table, CSV and a single raw document', async () => {
    const all = ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-l', '1', '--all']));
    expect(all.stdout.match(/^(Instance|Volume)\s+701/gm)).toHaveLength(4);
    expect(all.stdout.match(/^type\s+id/gm)).toHaveLength(1);
    expect(all.stdout.endsWith('\nShowing 4 of 4\n')).toBe(true);
    // Off a terminal, progress is a plain line per page that has a next one.
    expect(all.stderr).toBe('Fetched 1 of 4\nFetched 2 of 4\nFetched 3 of 4\n');

    const raw = JSON.parse(
      ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-l', '2', '--all', '--raw'])).stdout,
    );
    expect(raw).toMatchObject({ count: 4, total: 4, next_token: null });
    expect(new Set(raw.results.map((entry: { source: string }) => entry.source)).size).toBe(4);

    const csv = ok(
      await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-l', '2', '--all', '--csv', '-v']),
    );
    const rows = csv.stdout.trimEnd().split('\r\n');
    expect(rows[0]).toBe('type,id,charge_type,amount,start,end,endpoint,workergroup,description');
    expect(rows).toContain(
      'instance,70101,,4.500,2026-01-01T00:00:00Z,2026-01-03T01:00:00Z,,,Instance 70101 Charges - 3 days',
    );
    expect(rows.filter((row) => /^instance,70101,gpu,4\.500,/.test(row))).toHaveLength(1);
    expect(csv.stderr).toBe('Fetched 2 of 4\nShowing 4 of 4\n');
  });

  it('shows --all progress on stderr when it is a terminal, never in the output', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'gpumkt-all-'));
    for (const [name, extra] of [
      ['table.txt', []],
      ['page.json', ['--raw']],
    ] as const) {
      const file = join(directory, name);
      const terminal = await runCliInTerminal(
        [
          'show',
          'invoices',
          '-c',
          '-s',
          '2026-01-01',
          '-e',
          '2026-01-05',
          '-l',
          '1',
          '--all',
          ...extra,
        ],
        { env: env(), stdoutFile: file },
      );
      expect(terminal.code).toBe(0);
      // What the terminal showed: the progress, rewritten in place, ending at the total.
      expect(terminal.stdout).toBe(
        '\r\u001b[KFetched 1 of 4\r\u001b[KFetched 2 of 4\r\u001b[KFetched 3 of 4' +
          '\r\u001b[KFetched 4 of 4\r\n',
      );
      const output = readFileSync(file, 'utf8');
      expect(output).not.toContain('Fetched');
      if (extra.length > 0) expect(JSON.parse(output)).toMatchObject({ count: 4, total: 4 });
      else expect(output.endsWith('\nShowing 4 of 4\n')).toBe(true);
    }
  });

  it('groups serverless contracts under their endpoint in tree format, and filters by type', async () => {
    const tree = ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-f', 'tree', '-v']));
    expect(tree.stdout).toMatch(
      /^Endpoint 77 {2}\$0\.875 {2}2026-01-02 00:00 -> 2026-01-04 01:00 {2}Endpoint 77/m,
    );
    expect(tree.stdout).toMatch(/^Instance 70101 {2}\$4\.500 .*\n└─ gpu {2}\$4\.500 {2}/m);
    expect(tree.stdout).toContain('Showing 3 of 3');

    const volumes = JSON.parse(
      ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-ct', 'v', '--raw'])).stdout,
    );
    expect(volumes.results.map((entry: { source: string }) => entry.source)).toEqual([
      'volume-70104',
    ]);
    const serverless = JSON.parse(
      ok(await cli(['-s', '2026-01-01', '-e', '2026-01-05', '-ct', 's', 'i', '--raw'])).stdout,
    );
    expect(serverless.total).toBe(3);
  });

  it('makes a 7-day window from a single date', async () => {
    // Only -e 2026-01-02: Dec 27 .. Jan 2, so contracts charged from Jan 3 on are out.
    const toEnd = JSON.parse(ok(await cli(['-e', '2026-01-02', '--raw', '--explain'])).stdout);
    expect(toEnd.results.map((entry: { source: string }) => entry.source).sort()).toEqual([
      'instance-70101',
      'instance-70102',
      'volume-70104',
    ]);
    // Only -s 2026-01-15: Jan 15 .. Jan 21 holds the outlier alone.
    const fromStart = JSON.parse(ok(await cli(['-s', '2026-01-15', '--raw'])).stdout);
    expect(fromStart.results.map((entry: { source: string }) => entry.source)).toEqual([
      'instance-70105',
    ]);
  });

  it('retries the 429 of the rate limiter after its Retry-After, and reports it with --retry 0', async () => {
    // A 6-second interval leaves room for the CLI to start before the limit lapses, also on
    // a loaded machine (a node process can take seconds to start there).
    const limited = await startApi({ RATE_LIMITS: 'on', RATE_LIMIT_CHARGES: '6' });
    try {
      const run = (extra: string[]) =>
        runCli(['show', 'invoices', '-c', '-s', '2026-01-01', '--raw', '--explain', ...extra], {
          env: { ...env(), GPUMKT_URL: limited.url },
        });
      const prime = async () => {
        const response = await limited
          .http()
          .get('/api/v0/charges/')
          .query({ select_filters: JSON.stringify({ day: { gte: day(0), lte: day(1) } }) })
          .set({ Authorization: `Bearer ${KEY}` });
        expect([200, 429]).toContain(response.status);
      };

      // A loaded machine may start the CLI after the interval has lapsed: then the first
      // request is simply served, and the case is tried again (bounded).
      const afterPrime = async (extra: string[], wasLimited: (result: CliResult) => boolean) => {
        let result: CliResult | undefined;
        for (let attempt = 0; attempt < 3; attempt++) {
          await prime();
          result = await run(extra);
          if (wasLimited(result)) break;
        }
        return result!;
      };

      const refused = await afterPrime(['--retry', '0'], (result) => result.code !== 0);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(
        /\{"detail":"API requests too frequent endpoint threshold=6(\.0)?"\}\n$/,
      );

      const retried = await afterPrime([], (result) => result.stderr.includes('429: retry'));
      expect(retried.code).toBe(0);
      expect(JSON.parse(retried.stdout).total).toBeGreaterThan(0);
      expect(retried.stderr).toMatch(/\[explain\] 429: retry 1 of 3 in [1-6]\.00 s\n/);
      expect(retried.stderr.match(/\[explain\] GET /g)!.length).toBeGreaterThanOrEqual(2);
    } finally {
      await limited.close();
    }
  });

  describe('--all on a large account', () => {
    const BIG_USER = 70002;
    const BIG_KEY = 'cli-charges-key-70002';
    const ENTRIES = 1203;
    const bigEnv = () => ({ ...env(), GPUMKT_API_KEY: BIG_KEY });
    const window = ['-s', '2026-01-01', '-e', '2026-01-05'];
    const requests = (stderr: string) => (stderr.match(/^\[explain\] GET /gm) ?? []).length;

    beforeAll(async () => {
      await loadFixtures(api, {
        users: [{ id: BIG_USER, email: 'cli-charges-70002@example.test', api_key: BIG_KEY }],
      });
      // Contract 71001 + n: one gpu charge of 0.5 on day n % 5, as fixtures would write it,
      // in a few bulk statements (1,203 fixture contracts took minutes on a busy machine).
      await seedBulkCharges(api.app.get(DataSource), {
        userId: BIG_USER,
        firstId: 71001,
        contracts: ENTRIES,
        firstDay: D0,
        label: null,
        days: 1,
        spread: 5,
        types: ['gpu'],
      });
    });

    it('walks with the largest page the server allows, unless -l says otherwise', async () => {
      const walked = await runCli(['show', 'invoices', '-c', ...window, '--all', '--explain'], {
        env: bigEnv(),
      });
      expect(walked.code).toBe(0);
      expect(requests(walked.stderr)).toBe(Math.ceil(ENTRIES / 500));
      expect(walked.stderr).toContain('query limit = 500');
      expect(walked.stdout.match(/^Instance\s+7\d{4}/gm)).toHaveLength(ENTRIES);
      expect(walked.stdout.endsWith(`\nShowing ${ENTRIES} of ${ENTRIES}\n`)).toBe(true);
      expect(walked.stderr.match(/^Fetched .*$/gm)).toEqual([
        'Fetched 500 of 1,203',
        'Fetched 1,000 of 1,203',
      ]);

      const paced = await runCli(
        ['show', 'invoices', '-c', ...window, '--all', '-l', '300', '--explain', '--raw'],
        { env: bigEnv() },
      );
      expect(requests(paced.stderr)).toBe(Math.ceil(ENTRIES / 300));
      const document = JSON.parse(paced.stdout);
      expect(document).toMatchObject({ count: ENTRIES, total: ENTRIES, next_token: null });
      expect(new Set(document.results.map((e: { source: string }) => e.source)).size).toBe(ENTRIES);
    });

    it('stops walking when the reader of its output goes away (| head)', async () => {
      // 241 pages of 5 to walk; head takes three lines and leaves.
      const piped = await runCommandLine(
        `gpumkt show invoices -c ${window.join(' ')} --all -l 5 --explain | head -3`,
        { env: bigEnv() },
      );
      expect(piped.code).toBe(0);
      expect(piped.stdout.split('\n').filter(Boolean)).toHaveLength(3);
      expect(piped.stdout).toMatch(/^type\s+id/);
      // The first rows came with the first page; the walk ended soon after, far from its end.
      expect(requests(piped.stderr)).toBeLessThan(50);
    });
  });
});
