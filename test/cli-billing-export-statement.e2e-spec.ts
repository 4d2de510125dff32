import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadFixtures, startApi, TestApi } from '@test/support/api';
import { CliResult, rawDocument, runCli, runCliInTerminal } from '@test/support/cli';

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
    await db.query(`DELETE FROM billing_report_days WHERE user_id = $1`, [USER]);
    await db.query(`DELETE FROM billing_statement_days WHERE user_id = $1`, [USER]);
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
      'contract_id,contract_type,label,endpoint_id,workergroup_id,type,day,quantity,unit,rate,amount',
      '70311,instance,"a ""quoted"", label",,,gpu,2026-01-30,1,hours,1.5,1.5',
      '70311,instance,"a ""quoted"", label",,,gpu,2026-01-31,1,hours,1.5,1.5',
      '70311,instance,"a ""quoted"", label",,,gpu,2026-02-01,1,hours,1.5,1.5',
      '70312,serverless,,88,89,gpu,2026-01-31,1,hours,0.25,0.25',
      '70312,serverless,,88,89,gpu,2026-02-02,1,hours,0.0004,0.0004',
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
});
