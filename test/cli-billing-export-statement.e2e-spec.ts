import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadFixtures, startApi, TestApi } from '@test/support/api';
import { CLI_MAIN, CliResult, rawDocument, runCli, runCliInTerminal } from '@test/support/cli';
import { waitFor } from '@test/support/wait';

/**
 * `gpumkt show invoices --charges --export FILE` and `gpumkt show statement` against the
 * real api, on fixtures 70301-70399 (user 70301).
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 0, 30) / 1000; // Friday 2026-01-30
const day = (n: number) => D0 + n * DAY;
const USER = 70301;
const KEY = 'cli-billing-key-70301';

function charge(n: number, type: string, amount: string) {
  return { day: day(n), type, quantity: '1', unit: 'hours', rate: amount, amount };
}

const FIXTURES = {
  users: [{ id: USER, email: 'cli-billing-70301@example.test', api_key: KEY, verified: true }],
  contracts: [
    {
      id: 70311,
      user_id: USER,
      kind: 'instance',
      start: day(0),
      end: day(3),
      label: 'a "quoted", label',
      template_id: null,
      endpoint_id: null,
      workergroup_id: null,
      charges: [charge(0, 'gpu', '1.5'), charge(1, 'gpu', '1.5'), charge(2, 'gpu', '1.5')],
    },
    {
      id: 70312,
      user_id: USER,
      kind: 'instance',
      start: day(1),
      end: day(4),
      label: null,
      template_id: null,
      endpoint_id: 88,
      workergroup_id: 89,
      charges: [charge(1, 'gpu', '0.25'), charge(3, 'gpu', '0.0004')],
    },
  ],
};

describe('gpumkt export and statement', () => {
  let api: TestApi;
  const env = () => ({ GPUMKT_URL: api.url, GPUMKT_API_KEY: KEY, XDG_CONFIG_HOME: '/nonexistent' });
  const ok = (result: CliResult): CliResult => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
    return result;
  };
  const directory = mkdtempSync(join(tmpdir(), 'gpumkt-export-'));
  const window = ['-s', '2026-01-30', '-e', '2026-02-02'];

  beforeAll(async () => {
    api = await startApi();
    const db = api.app.get(DataSource);
    await db.query(`DELETE FROM billing_contracts WHERE user_id = $1`, [USER]);
    await db.query(`DELETE FROM billing_report_days WHERE owner_key = $1`, [USER]);
    await db.query(`DELETE FROM billing_statement_days WHERE owner_key = $1`, [USER]);
    await loadFixtures(api, FIXTURES);
  });
  afterAll(() => api.close());

  it('streams the export to a file, CSV by default, NDJSON on request, with a --raw summary', async () => {
    const csvFile = join(directory, 'charges.csv');
    const csv = ok(
      await runCli(['show', 'invoices', '-c', ...window, '--export', csvFile], { env: env() }),
    );
    expect(csv.stdout).toBe('');
    const text = readFileSync(csvFile, 'utf8');
    expect(text.split('\r\n')).toEqual([
      'contract_id,contract_type,label,endpoint_id,workergroup_id,type,day,quantity,unit,rate,amount,billed_amount',
      '70311,instance,"a ""quoted"", label",,,gpu,2026-01-30,1,hours,1.5,1.5,1.500',
      '70311,instance,"a ""quoted"", label",,,gpu,2026-01-31,1,hours,1.5,1.5,1.500',
      '70311,instance,"a ""quoted"", label",,,gpu,2026-02-01,1,hours,1.5,1.5,1.500',
      '70312,serverless,,88,89,gpu,2026-01-31,1,hours,0.25,0.25,0.250',
      '70312,serverless,,88,89,gpu,2026-02-02,1,hours,0.0004,0.0004,0.000',
      '',
    ]);
    expect(csv.stderr).toBe(
      `Wrote 5 rows (${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB) to ${csvFile}\n`,
    );
    expect(existsSync(`${csvFile}.part`)).toBe(false);

    const ndjsonFile = join(directory, 'charges.ndjson');
    const summary = rawDocument(
      await runCli(
        [
          'show',
          'invoices',
          '-c',
          ...window,
          '-ct',
          's',
          '--export',
          ndjsonFile,
          '-f',
          'ndjson',
          '--raw',
        ],
        { env: env() },
      ),
    );
    const lines = readFileSync(ndjsonFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((line) => [line.contract_id, line.day, line.amount])).toEqual([
      [70312, '2026-01-31', '0.25'],
      [70312, '2026-02-02', '0.0004'],
    ]);
    expect(summary).toEqual({
      file: ndjsonFile,
      format: 'ndjson',
      rows: 2,
      bytes: Buffer.byteLength(readFileSync(ndjsonFile)),
    });
  });

  it("exports the dates of --tz: the zone's midnights bound the window", async () => {
    // In Tokyo (UTC+9) 2026-01-31..02-01 is 2026-01-30T15:00Z..2026-02-01T14:59:59Z, which
    // holds the dates 01-31 and 02-01; the UTC bounds with tz would have held 02-01 and 02-02.
    const file = join(directory, 'tokyo.ndjson');
    const args = ['show', 'invoices', '-c', '-s', '2026-01-31', '-e', '2026-02-01'];
    const result = ok(
      await runCli([...args, '--export', file, '-f', 'ndjson', '--tz', 'Asia/Tokyo', '--explain'], {
        env: env(),
      }),
    );
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((line) => [line.contract_id, line.day])).toEqual([
      [70311, '2026-01-31'],
      [70311, '2026-02-01'],
      [70312, '2026-01-31'],
    ]);
    expect(result.stderr).toContain('tz = Asia/Tokyo');
    expect(result.stderr).toContain(String(Date.parse('2026-01-30T15:00:00Z') / 1000));
  });

  it('shows a progress bar of rows and bytes on a terminal, ending at the total', async () => {
    const file = join(directory, 'progress.csv');
    const terminal = ok(
      await runCliInTerminal(['show', 'invoices', '-c', ...window, '--export', file], {
        env: env(),
      }),
    );
    expect(terminal.stdout).toContain(
      `\r[##############################] 100%  5 of 5 rows  0.0 MB\r\nWrote 5 rows`,
    );
    expect(readFileSync(file, 'utf8').split('\r\n')).toHaveLength(7);
  });

  it('reports an api refusal of the export and writes no file', async () => {
    const file = join(directory, 'refused.csv');
    const result = await runCli(
      ['show', 'invoices', '-c', ...window, '--export', file, '--retry', '0'],
      { env: { ...env(), GPUMKT_API_KEY: 'no-such-key' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid user key');
    expect(existsSync(file)).toBe(false);
  });

  it('checks the destination before the download: a missing folder, a folder as FILE', async () => {
    const missing = join(directory, 'no-such-folder', 'charges.csv');
    for (const [file, says] of [
      [missing, `--export ${missing}: folder ${join(directory, 'no-such-folder')} does not exist`],
      [directory, `--export ${directory} is a folder; give a file name`],
    ]) {
      const result = await runCli(
        ['show', 'invoices', '-c', ...window, '--export', file, '--explain'],
        { env: env() },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`error: ${says}\n`);
    }
  });

  it('removes the part file when interrupted during the download (Ctrl-C), and exits 130', async () => {
    // An api that starts the body and then holds it: the download is in progress for good.
    const stalled = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/csv', 'X-Charge-Lines': '1000' });
      response.write('contract_id,contract_type,label\r\n70311,instance,first\r\n');
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const file = join(directory, 'interrupted.csv');
    const child = spawn(
      process.execPath,
      [CLI_MAIN, 'show', 'invoices', '-c', ...window, '--export', file],
      {
        env: {
          ...process.env,
          GPUMKT_URL: `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`,
          GPUMKT_API_KEY: KEY,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor(
        () => (existsSync(`${file}.part`) ? statSync(`${file}.part`).size : 0),
        (size) => size > 0,
        { what: 'the first bytes in the part file' },
      );
      child.kill('SIGINT');
      expect(await exited).toBe(130);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      stalled.closeAllConnections();
      await new Promise((resolve) => stalled.close(resolve));
    }
    expect(existsSync(`${file}.part`)).toBe(false);
    expect(existsSync(file)).toBe(false);
    expect(stderr).toBe(`\nInterrupted: the export stopped; ${file} was not written\n`);
  });

  it("takes --tz and --by endpoint,type: the zone's days, a column per (key, subkey) pair", async () => {
    const args = [
      ...['show', 'statement', '--period', 'day', '--by', 'endpoint,type'],
      ...['--tz', 'America/New_York', ...window],
    ];
    const lines = ok(await runCli(args, { env: env() })).stdout.split('\n');
    expect(lines[0]).toMatch(/^Period\s+\(none\) \/ instance\s+endpoint-88 \/ serverless\s+Total$/);
    expect(lines.slice(1, 6).map((line) => line.split(/\s+/))).toEqual([
      ['2026-01-30', '$1.500', '-', '$1.500'],
      ['2026-01-31', '$1.500', '$0.250', '$1.750'],
      ['2026-02-01', '$1.500', '-', '$1.500'],
      ['2026-02-02', '-', '$0.000', '$0.000'],
      ['Total', '$4.750'],
    ]);
    const raw = rawDocument(await runCli([...args, '--raw'], { env: env() })) as {
      periods: { start: number }[];
    };
    // New York's midnights (05:00 UTC in January).
    expect(raw.periods.map((p) => p.start)).toEqual([0, 1, 2, 3].map((n) => day(n) + 5 * 3600));
    const refused = await runCli([...args.slice(0, -4), '--tz', 'Mars/Olympus'], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("'Mars/Olympus' is not an IANA time zone name");
  });

  it('prints the statement as a table, as JSON with --raw, and adds a stacked chart on a terminal', async () => {
    const args = ['show', 'statement', '--period', 'week', '--by', 'type', ...window];
    const table = ok(await runCli(args, { env: env() }));
    expect(table.stdout).toBe(
      [
        'Period                  instance  serverless   Total',
        '2026-01-30..2026-02-01    $4.500      $0.250  $4.750',
        '2026-02-02                     -      $0.000  $0.000',
        'Total                                         $4.750',
        '',
      ].join('\n'),
    );
    const raw = rawDocument(await runCli([...args, '--raw'], { env: env() }));
    expect(raw).toEqual({
      success: true,
      periods: [
        {
          start: day(0),
          end: day(3),
          groups: [
            { key: 'instance', amount: 4.5 },
            { key: 'serverless', amount: 0.25 },
          ],
          amount: 4.75,
        },
        { start: day(3), end: day(4), groups: [{ key: 'serverless', amount: 0 }], amount: 0 },
      ],
      amount: 4.75,
    });
    const terminal = ok(await runCliInTerminal(args, { env: env() }));
    const shown = terminal.stdout.replace(/\r\n/g, '\n');
    // 4.500 of 4.750 is 47 of 50 columns, 0.250 the other 3.
    expect(shown).toContain(`2026-01-30..2026-02-01 │${'█'.repeat(47)}${'▓'.repeat(3)}│ $4.750`);
    expect(shown).toContain(`2026-02-02             │${' '.repeat(50)}│ $0.000`);
    expect(shown).toContain('█ instance   ▓ serverless');
  });

  it('shows a hostile label escaped in the statement table and chart: no colour, no title, no broken row', async () => {
    const hostileUser = 70302;
    const hostileKey = 'cli-billing-key-70302';
    const label = 'red\u001b[31m\u001b]0;owned\u0007\nsecond line';
    await loadFixtures(api, {
      users: [
        {
          id: hostileUser,
          email: 'cli-billing-70302@example.test',
          api_key: hostileKey,
          verified: true,
        },
      ],
      contracts: [
        {
          id: 70321,
          user_id: hostileUser,
          kind: 'volume',
          start: day(0),
          end: day(1),
          label,
          template_id: null,
          endpoint_id: null,
          workergroup_id: null,
          charges: [charge(0, 'disk', '2')],
        },
      ],
    });
    const hostileEnv = { ...env(), GPUMKT_API_KEY: hostileKey };
    const args = ['show', 'statement', '--by', 'label', ...window];
    const shown = ok(await runCliInTerminal(args, { env: hostileEnv })).stdout;
    const escaped = 'red\\x1b[31m\\x1b]0;owned\\x07\\nsecond line';
    expect(shown).toContain(escaped);
    expect(shown).not.toContain('\u001b[31m');
    expect(shown).not.toContain('\u0007');
    const table = ok(await runCli(args, { env: hostileEnv })).stdout;
    expect(table.split('\n')[0].split(/\s{2,}/)).toEqual(['Period', escaped, 'Total']);
    expect(table.trimEnd().split('\n')).toHaveLength(4); // header, two months, total
  });
});
