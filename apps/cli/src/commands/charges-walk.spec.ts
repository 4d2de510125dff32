import { CommandContext } from '../context';
import { memoryIo } from '../testing/memory-io';
import { ChargesWalkPrinter, walkCharges, WalkFormat } from './charges-walk';
import { ChargeEntry, ChargePage, renderChargesCsv, renderChargesTable } from './charges.render';

const entry = (id: number, amount = 1.5): ChargeEntry => ({
  type: 'instance',
  source: `instance-${id}`,
  description: `Instance ${id} Charges`,
  amount,
  start: 1_767_225_600,
  end: 1_767_229_200,
  metadata: {},
  items: [{ type: 'gpu', amount, start: 1_767_225_600, end: 1_767_229_200 }],
});

/** Pages of `sizes` entries each, ids counting up, chained by tokens. */
function pages(...sizes: number[]): ChargePage[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  let id = 1;
  return sizes.map((size, index) => ({
    success: true,
    results: Array.from({ length: size }, () => entry(id++ * (index === 1 ? 1000 : 1))),
    count: size,
    total,
    next_token: index < sizes.length - 1 ? `t${index + 1}` : null,
  }));
}

async function walk(
  format: WalkFormat,
  served: ChargePage[],
  terminal: { stdout?: boolean; stderr?: boolean } = {},
) {
  const memory = memoryIo();
  memory.io.stdout.isTTY = Boolean(terminal.stdout);
  memory.io.stderr.isTTY = Boolean(terminal.stderr);
  const context = new CommandContext(memory.io, {
    url: 'http://127.0.0.1:1',
    retry: 0,
    raw: format === 'raw',
    explain: false,
  });
  const tokens: Array<string | undefined> = [];
  await walkCharges(
    context,
    async (token) => {
      tokens.push(token);
      return served[tokens.length - 1];
    },
    new ChargesWalkPrinter(context, format, true),
    undefined,
    undefined,
  );
  return { ...memory, tokens };
}

describe('show invoices --all, page by page', () => {
  it('follows every token once, in order', async () => {
    const { tokens } = await walk('table', pages(2, 2, 1));
    expect(tokens).toEqual([undefined, 't1', 't2']);
  });

  it.each([[[0]], [[1]], [[3, 2, 1]]])(
    'streams exactly the one JSON document of the merged pages (%j)',
    async (sizes) => {
      const served = pages(...sizes);
      const { stdout } = await walk('raw', served);
      const results = served.flatMap((page) => page.results);
      const merged = {
        success: true,
        results,
        count: results.length,
        total: served[0].total,
        next_token: null,
      };
      expect(stdout()).toBe(`${JSON.stringify(merged, null, 2)}\n`);
    },
  );

  it('prints one table whose columns widen for a later page, then the footer', async () => {
    const served = pages(2, 2);
    const { stdout } = await walk('table', served);
    const lines = stdout().split('\n');
    expect(lines.filter((line) => line.startsWith('type'))).toHaveLength(1);
    // The first page's rows are as a one-page table of them would print them.
    expect(stdout().startsWith(renderChargesTable(served[0].results, true))).toBe(true);
    expect(stdout()).toContain('Instance  3000');
    expect(stdout().endsWith('\nShowing 4 of 4\n')).toBe(true);
  });

  it('prints one CSV header, every record, and the footer on stderr', async () => {
    const served = pages(2, 1);
    const { stdout, stderr } = await walk('csv', served);
    const all = served.flatMap((page) => page.results);
    expect(stdout()).toBe(renderChargesCsv(all, true));
    expect(stderr()).toBe('Fetched 2 of 3\nShowing 3 of 3\n');
  });

  it('off a terminal, says on stderr how far it got after each page that has a next one', async () => {
    const { stderr } = await walk('table', pages(2, 2, 1));
    expect(stderr()).toBe('Fetched 2 of 5\nFetched 4 of 5\n');
    const single = await walk('table', pages(3));
    expect(single.stderr()).toBe('');
  });

  it('on a terminal, redraws the progress in place and keeps it off the rows it shares a screen with', async () => {
    const shared = await walk('table', pages(1, 1, 1), { stdout: true, stderr: true });
    expect(shared.stderr()).toBe(
      '\r\u001b[KFetched 1 of 3\r\u001b[K\r\u001b[KFetched 2 of 3\r\u001b[K',
    );
    const redirected = await walk('table', pages(1, 1, 1), { stderr: true });
    expect(redirected.stderr()).toBe(
      '\r\u001b[KFetched 1 of 3\r\u001b[KFetched 2 of 3\r\u001b[KFetched 3 of 3\n',
    );
  });
});
