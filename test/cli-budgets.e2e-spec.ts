import { DataSource } from 'typeorm';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { cliEnvFor, rawDocument, runCli, succeeded } from '@test/support/cli';

/** `gpumkt budgets ...` against the real api (docs/cli.md, docs/spend-guards.md). */
describe('gpumkt: budgets', () => {
  let api: TestApi;
  let user: TestUser;
  let other: TestUser;

  const cli = (args: string[], caller: TestUser = user) =>
    runCli(args, { env: cliEnvFor(api.url, caller.apiKey) });

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api);
    other = await createTestUser(api);
  });

  afterAll(async () => {
    await api.app
      .get(DataSource)
      .query(`DELETE FROM users WHERE id = ANY($1)`, [[user.id, other.id]]);
    await api.close();
  });

  it('creates, lists, shows, updates, lists alerts of and deletes a budget', async () => {
    const created = succeeded(
      await cli([
        'budgets',
        'create',
        '--name',
        'training',
        '--amount',
        '250.5',
        '--period',
        'month',
        '--thresholds',
        '80,100',
        '--label',
        'train',
      ]),
    ).stdout;
    const [, id] =
      /^Budget (\d+) created: training, \$250\.500 per month, alerts at 80%, 100% \(scope: label=train\)\.$/m.exec(
        created,
      )!;

    const listed = succeeded(await cli(['budgets', 'list'])).stdout;
    expect(listed).toMatch(/^id\s+name\s+amount\s+period\s+thresholds\s+scope\s+created/);
    expect(listed).toContain('training');
    expect(listed).toContain('$250.500');
    const raw = rawDocument<{ budgets: { id: number; name: string }[] }>(
      succeeded(await cli(['budgets', 'list', '--raw'])),
    );
    expect(raw.budgets.map((budget) => [budget.id, budget.name])).toEqual([
      [Number(id), 'training'],
    ]);

    const shown = succeeded(await cli(['budgets', 'show', id])).stdout;
    expect(shown).toMatch(/^spent\s+\$0\.000$/m);
    expect(shown).toMatch(/^remaining\s+\$250\.500$/m);
    expect(shown).toMatch(/^forecast\s+\$0\.000 \(linear\)$/m);
    expect(shown).toMatch(/^crossed\s+-$/m);

    const updated = succeeded(
      await cli(['budgets', 'update', id, '--amount', '300', '--clear', 'label']),
    ).stdout;
    expect(updated).toBe(
      `Budget ${id} updated: training, $300.000 per month, alerts at 80%, 100% (scope: -).\n`,
    );
    expect(succeeded(await cli(['budgets', 'alerts', id])).stdout).toBe('No alerts.\n');
    expect(
      rawDocument<{ alerts: unknown[] }>(succeeded(await cli(['budgets', 'alerts', id, '--raw'])))
        .alerts,
    ).toEqual([]);

    const theirs = await cli(['budgets', 'show', id], other);
    expect(theirs.code).not.toBe(0);
    expect(theirs.stderr).toContain('budget not found');

    expect(succeeded(await cli(['budgets', 'delete', id])).stdout).toBe(
      `Budget ${id} deleted, with its alerts.\n`,
    );
    expect(succeeded(await cli(['budgets', 'list'])).stdout).toBe('No budgets.\n');
  });

  it('refuses bad options before any request, and says what the server refused', async () => {
    const period = await cli([
      'budgets',
      'create',
      '--name',
      'x',
      '--amount',
      '1',
      '--period',
      'year',
    ]);
    expect(period.code).toBe(2);
    expect(period.stderr).toContain('Allowed: day, week, month.');
    const amount = await cli([
      'budgets',
      'create',
      '--name',
      'x',
      '--amount',
      'ten',
      '--period',
      'day',
    ]);
    expect(amount.code).toBe(2);
    const decimals = await cli([
      'budgets',
      'create',
      '--name',
      'x',
      '--amount',
      '1.2345',
      '--period',
      'day',
    ]);
    expect(decimals.code).not.toBe(0);
    expect(decimals.stderr).toContain('amount must have at most 3 decimals');
  });
});
