import { DataSource } from 'typeorm';
import { ContractRepository } from '@app/billing';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { vastai } from '@test/support/access';
import { smtpEnv } from '@test/support/delivery';
import { OwnRedis } from '@test/support/own-redis';
import { startSmtpSink, SmtpSink, SunkMail } from '@test/support/smtp-sink';
import { waitFor } from '@test/support/wait';

/**
 * Budgets over HTTP (docs/spend-guards.md): CRUD and every refusal, owners (another
 * owner's budget is a 404; a team's context holds the team's budgets), the status against
 * charges written through billing's write path, and alerts exactly once with sixteen
 * writers, the api's sweep and a second process's sweep evaluating at the same time.
 */

const DAY = 86_400;
/** Contract ids owned by this file. */
const FIRST_CONTRACT = 64_000_000;
let nextContract = FIRST_CONTRACT;

function today(): number {
  return Math.floor(Date.now() / 1000 / DAY) * DAY;
}

describe('budgets: /api/v0/budgets/', () => {
  let api: TestApi;
  let sweeper: TestApi;
  let sink: SmtpSink;
  let redis: OwnRedis;
  let db: DataSource;
  let user: TestUser;
  const users: number[] = [];
  const teams: number[] = [];

  const call = (
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    caller: { auth: Record<string, string> } | null = user,
    body?: unknown,
  ) => {
    const request = api.http()[method](path);
    if (caller) request.set(caller.auth);
    if (body === undefined) return request;
    return request.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };
  const create = (body: unknown, caller: { auth: Record<string, string> } | null = user) =>
    call('post', '/api/v0/budgets/', caller, body);

  const newUser = async () => {
    const created = await createTestUser(api);
    users.push(created.id);
    return created;
  };

  /** Writes a contract of `owner` with one gpu charge of `amount` today, through billing's write path. */
  const charge = async (
    owner: { userId: number; teamId?: number | null },
    amount: string,
    fields: { label?: string; endpointId?: number; workergroupId?: number; day?: number } = {},
  ) => {
    const id = ++nextContract;
    const day = fields.day ?? today();
    await api.app.get(ContractRepository).replace(
      {
        id,
        userId: owner.userId,
        teamId: owner.teamId ?? null,
        kind: 'instance',
        start: day,
        end: day + 3600,
        label: fields.label ?? null,
        templateId: null,
        endpointId: fields.endpointId ?? null,
        workergroupId: fields.workergroupId ?? null,
      },
      [{ day, type: 'gpu', quantity: '1', unit: 'hours', rate: amount, amount }],
    );
    return id;
  };

  const alertRows = (budgetId: number) =>
    db.query<{ threshold: number; spent: string; mail_sent_at: Date | null }[]>(
      `SELECT threshold, spent::text AS spent, mail_sent_at FROM budget_alerts
        WHERE budget_id = $1 ORDER BY threshold`,
      [budgetId],
    );

  beforeAll(async () => {
    // A Redis of their own: the apis of other test files running at the same time have
    // workers too, which would take these alerts' mail jobs and send them elsewhere.
    [sink, redis] = await Promise.all([startSmtpSink(), OwnRedis.start()]);
    const env = {
      REDIS_URL: redis.url,
      ...smtpEnv(sink),
      BUDGET_SWEEP_SECONDS: '1',
      BUDGET_ALERT_RETRY_SECONDS: '1',
    };
    api = await startApi(env);
    // A second process's worker: its sweep evaluates every owner while the api writes.
    sweeper = await startApi(env);
    db = api.app.get(DataSource);
    user = await newUser();
  }, 120_000);

  afterAll(async () => {
    await db.query(`DELETE FROM billing_contracts WHERE id > $1 AND id <= $2`, [
      FIRST_CONTRACT,
      nextContract,
    ]);
    const owners = [...users, ...teams.map((team) => -team)];
    await db.query(`DELETE FROM billing_report_days WHERE owner_key = ANY($1)`, [owners]);
    await db.query(`DELETE FROM billing_statement_days WHERE owner_key = ANY($1)`, [owners]);
    // Budgets and their alerts go with their owners (ON DELETE CASCADE).
    await db.query(`DELETE FROM users WHERE id = ANY($1)`, [users]);
    await db.query(`DELETE FROM teams WHERE id = ANY($1)`, [teams]);
    await sweeper.close();
    await api.close();
    await sink.close();
    await redis.stop();
  });

  describe('CRUD', () => {
    it("creates the caller's budget, a number or a string amount, the default thresholds", async () => {
      const before = Math.floor(Date.now() / 1000);
      const response = await create({ name: 'training', amount: 250.5, period: 'month' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        budget: {
          id: expect.any(Number),
          name: 'training',
          amount: '250.500',
          period: 'month',
          thresholds: [50, 80, 100],
          label: null,
          endpoint_id: null,
          workergroup_id: null,
          owner: { user_id: user.id, team_id: null },
          created_at: expect.any(Number),
          updated_at: expect.any(Number),
        },
      });
      expect(response.body.budget.created_at).toBeGreaterThanOrEqual(before);
      const scoped = await create({
        name: 'serverless',
        amount: '10',
        period: 'week',
        thresholds: [100, 25],
        label: 'train',
        endpoint_id: 501,
        workergroup_id: 601,
      });
      expect(scoped.body.budget).toMatchObject({
        amount: '10.000',
        thresholds: [25, 100],
        label: 'train',
        endpoint_id: 501,
        workergroup_id: 601,
      });
      const listed = await call('get', '/api/v0/budgets/');
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({
        success: true,
        budgets: [response.body.budget, scoped.body.budget],
      });
    });

    it('updates what it is given, removes a scope key given as null, and deletes', async () => {
      const created = (
        await create({ name: 'to change', amount: 5, period: 'day', label: 'x', endpoint_id: 9 })
      ).body.budget;
      const updated = await call('put', `/api/v0/budgets/${created.id}/`, user, {
        name: 'changed',
        amount: '7.25',
        thresholds: [90],
        endpoint_id: null,
      });
      expect(updated.status).toBe(200);
      expect(updated.body.budget).toEqual({
        ...created,
        name: 'changed',
        amount: '7.250',
        thresholds: [90],
        endpoint_id: null,
        updated_at: expect.any(Number),
      });
      const shown = await call('get', `/api/v0/budgets/${created.id}/`);
      expect(shown.body.budget).toMatchObject({ name: 'changed', label: 'x', endpoint_id: null });
      const deleted = await call('delete', `/api/v0/budgets/${created.id}/`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true });
      const again = await call('delete', `/api/v0/budgets/${created.id}/`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ success: false, error: 'not_found', msg: 'budget not found' });
    });

    it('refuses every bad field with a 400 naming it, storing nothing', async () => {
      const owner = await newUser();
      const good = { name: 'x', amount: 1, period: 'day' };
      const cases: [unknown, string, string][] = [
        [{ ...good, name: ' ' }, 'budget_name_invalid', 'name must not be empty'],
        [
          { ...good, name: 'x'.repeat(101) },
          'budget_name_invalid',
          'name must be at most 100 characters',
        ],
        [
          { ...good, name: 'a\u0007b' },
          'bad_request',
          'Invalid request: name: contains a control character',
        ],
        [{ ...good, amount: 0 }, 'budget_amount_invalid', 'amount must be greater than 0'],
        [
          { ...good, amount: -5 },
          'budget_amount_invalid',
          'amount must be a decimal number such as 250 or "250.50"',
        ],
        [
          { ...good, amount: '1.2345' },
          'budget_amount_invalid',
          'amount must have at most 3 decimals',
        ],
        [
          { ...good, amount: 1000000000.5 },
          'budget_amount_invalid',
          'amount must be at most 1000000000',
        ],
        [
          { ...good, amount: 'ten' },
          'budget_amount_invalid',
          'amount must be a decimal number such as 250 or "250.50"',
        ],
        [
          { ...good, amount: [1] },
          'budget_amount_invalid',
          'amount must be a number or a decimal string',
        ],
        [
          { ...good, period: 'year' },
          'budget_period_invalid',
          'period must be one of day, week, month',
        ],
        [
          { ...good, thresholds: [] },
          'budget_thresholds_invalid',
          'thresholds must hold 1 to 10 percents',
        ],
        [
          { ...good, thresholds: [0] },
          'budget_thresholds_invalid',
          'thresholds must be integers from 1 to 1000',
        ],
        [
          { ...good, thresholds: [1001] },
          'budget_thresholds_invalid',
          'thresholds must be integers from 1 to 1000',
        ],
        [
          { ...good, thresholds: [50.5] },
          'budget_thresholds_invalid',
          'thresholds must be integers from 1 to 1000',
        ],
        [
          { ...good, thresholds: [5, 5] },
          'budget_thresholds_invalid',
          'thresholds must be distinct',
        ],
        [
          { ...good, thresholds: Array.from({ length: 11 }, (_, i) => i + 1) },
          'budget_thresholds_invalid',
          'thresholds must hold 1 to 10 percents',
        ],
        [{ ...good, thresholds: null }, 'bad_request', 'thresholds must not be null'],
        [{ ...good, label: '' }, 'budget_scope_invalid', 'label must be a non-empty string'],
        [{ ...good, label: 5 }, 'bad_request', 'label must be a string'],
        [
          { ...good, endpoint_id: 0 },
          'budget_scope_invalid',
          'endpoint_id must be a positive integer',
        ],
        [
          { ...good, workergroup_id: '7' },
          'budget_scope_invalid',
          'workergroup_id must be a positive integer',
        ],
        [{ amount: 1, period: 'day' }, 'bad_request', 'name is required'],
        [{ name: 'x', period: 'day' }, 'bad_request', 'amount is required'],
        [{ name: 'x', amount: 1 }, 'bad_request', 'period is required'],
        [{ ...good, name: 5 }, 'bad_request', 'name must be a string'],
      ];
      for (const [body, error, msg] of cases) {
        const response = await create(body, owner);
        expect({ body, status: response.status, response: response.body }).toEqual({
          body,
          status: 400,
          response: { success: false, error, msg },
        });
      }
      for (const body of [{ ...good, extra: true }, [], 'x']) {
        const response = await create(body, owner);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false, error: 'bad_request' });
      }
      const broken = await api
        .http()
        .post('/api/v0/budgets/')
        .set(owner.auth)
        .set('Content-Type', 'application/json')
        .send('{"name": ');
      expect(broken.status).toBe(400);
      expect(broken.body).toMatchObject({ success: false });
      expect((await call('get', '/api/v0/budgets/', owner)).body.budgets).toEqual([]);
    });

    it('refuses a bad update and a bad id', async () => {
      const created = (await create({ name: 'u', amount: 1, period: 'day' })).body.budget;
      for (const [body, error, msg] of [
        [{}, 'bad_request', 'nothing to change: give name, amount, thresholds or a scope key'],
        [{ name: null }, 'bad_request', 'name must not be null'],
        [{ amount: null }, 'bad_request', 'amount must not be null'],
        [{ amount: 0 }, 'budget_amount_invalid', 'amount must be greater than 0'],
        [
          { thresholds: [2000] },
          'budget_thresholds_invalid',
          'thresholds must be integers from 1 to 1000',
        ],
      ] as const) {
        const response = await call('put', `/api/v0/budgets/${created.id}/`, user, body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ success: false, error, msg });
      }
      const period = await call('put', `/api/v0/budgets/${created.id}/`, user, { period: 'week' });
      expect(period.status).toBe(400);
      expect(period.body).toMatchObject({ success: false, error: 'bad_request' });
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
        const response = await call('get', `/api/v0/budgets/${id}/`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: 'bad_request',
          msg: 'budget id must be a positive integer',
        });
      }
      const missing = await call('get', '/api/v0/budgets/2147483647/');
      expect(missing.status).toBe(404);
    });

    it("answers another owner's budget with 404 on every route, changing nothing", async () => {
      const mine = (await create({ name: 'mine', amount: 1, period: 'day' })).body.budget;
      const stranger = await newUser();
      for (const [method, path, body] of [
        ['get', `/api/v0/budgets/${mine.id}/`, undefined],
        ['get', `/api/v0/budgets/${mine.id}/alerts/`, undefined],
        ['put', `/api/v0/budgets/${mine.id}/`, { name: 'theirs' }],
        ['delete', `/api/v0/budgets/${mine.id}/`, undefined],
      ] as const) {
        const response = await call(method, path, stranger, body);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          success: false,
          error: 'not_found',
          msg: 'budget not found',
        });
      }
      expect((await call('get', '/api/v0/budgets/', stranger)).body.budgets).toEqual([]);
      expect((await call('get', `/api/v0/budgets/${mine.id}/`)).body.budget.name).toBe('mine');
    });

    it('refuses the 101st budget of an owner', async () => {
      const owner = await newUser();
      await db.query(
        `INSERT INTO budgets (user_id, name, amount, period, thresholds)
         SELECT $1, 'b' || n, 1, 'day', '{100}' FROM generate_series(1, 100) n`,
        [owner.id],
      );
      const response = await create({ name: 'one more', amount: 1, period: 'day' }, owner);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'budget_limit_reached',
        msg: 'an owner has at most 100 budgets',
      });
    });

    it('needs a credential, and billing_read or billing_write', async () => {
      const response = await create({ name: 'x', amount: 1, period: 'day' }, null);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      });
      const key = await api
        .http()
        .post('/api/v0/auth/apikeys/')
        .set(user.auth)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'reader', permissions: { api: { billing_read: {} } } }));
      const reader = { auth: { Authorization: `Bearer ${key.body.key}` } };
      expect((await call('get', '/api/v0/budgets/', reader)).status).toBe(200);
      const refused = await create({ name: 'x', amount: 1, period: 'day' }, reader);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, error: 'permission_denied' });
    });
  });

  describe("a team's budgets", () => {
    it("are the team's in its context, apart from each member's own", async () => {
      const owner = await newUser();
      const created = await vastai(api, owner, 'post', '/api/v0/team/', {
        team_name: `budgets-${owner.id}`,
      });
      expect(created.status).toBe(200);
      const teamId = created.body.team_id as number;
      teams.push(teamId);
      const teamKey = { auth: owner.auth };
      const personal = {
        auth: { Authorization: `Bearer ${created.body.personal_api_key.key as string}` },
      };
      const teamBudget = await create({ name: 'team', amount: 10, period: 'day' }, teamKey);
      expect(teamBudget.body.budget.owner).toEqual({ user_id: null, team_id: teamId });
      const own = await create({ name: 'own', amount: 10, period: 'day' }, personal);
      expect(own.body.budget.owner).toEqual({ user_id: owner.id, team_id: null });
      expect((await call('get', '/api/v0/budgets/', teamKey)).body.budgets).toEqual([
        teamBudget.body.budget,
      ]);
      expect((await call('get', '/api/v0/budgets/', personal)).body.budgets).toEqual([
        own.body.budget,
      ]);
      expect(
        (await call('get', `/api/v0/budgets/${teamBudget.body.budget.id}/`, personal)).status,
      ).toBe(404);

      // The team's charges count for the team's budget, the owner's own for theirs; the
      // team's alert goes to its owner.
      await charge({ userId: owner.id, teamId }, '6');
      await charge({ userId: owner.id }, '1');
      const status = async (auth: { auth: Record<string, string> }, id: number) =>
        (await call('get', `/api/v0/budgets/${id}/`, auth)).body.budget.status;
      expect(await status(teamKey, teamBudget.body.budget.id)).toMatchObject({
        spent: '6.000',
        crossed: [50],
      });
      expect(await status(personal, own.body.budget.id)).toMatchObject({
        spent: '1.000',
        crossed: [],
      });
      const [mail] = await sink.waitForMail(
        (sent) => subjectOf(sent).includes('"team" reached 50%'),
        1,
      );
      expect(mail.to).toEqual([owner.email]);
    });
  });

  describe('status', () => {
    it("counts the billed amounts of the period's charges in scope, with a linear forecast", async () => {
      const owner = await newUser();
      const all = (await create({ name: 'all', amount: '100', period: 'month' }, owner)).body
        .budget;
      const labelled = (
        await create({ name: 'train', amount: '100', period: 'day', label: 'train' }, owner)
      ).body.budget;
      const endpoint = (
        await create(
          { name: 'ep', amount: '100', period: 'week', endpoint_id: 501, workergroup_id: 601 },
          owner,
        )
      ).body.budget;
      // Billed per line: 10.0004 -> 10.000, 0.0005 -> 0.001 (half away from zero).
      await charge({ userId: owner.id }, '10.0004', { label: 'train' });
      await charge({ userId: owner.id }, '0.0005', { endpointId: 501, workergroupId: 601 });
      await charge({ userId: owner.id }, '2.5', { endpointId: 501 });
      // A charge of another period: day 40 days ago is outside this month, week and day.
      await charge({ userId: owner.id }, '1000', { day: today() - 40 * DAY });
      const before = Date.now();
      const shown = await call('get', `/api/v0/budgets/${all.id}/`, owner);
      const after = Date.now();
      expect(shown.status).toBe(200);
      const now = new Date(before);
      const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      const status = shown.body.budget.status;
      expect(status).toEqual({
        period_start: monthStart / 1000,
        period_end: monthEnd / 1000,
        spent: '12.501',
        remaining: '87.499',
        forecast: expect.any(String),
        forecast_method: 'linear',
        crossed: [],
      });
      // spent * length / elapsed, for an elapsed time between the request's send and answer.
      const forecastAt = (ms: number) => (12.501 * (monthEnd - monthStart)) / (ms - monthStart);
      expect(Number(status.forecast)).toBeGreaterThanOrEqual(forecastAt(after) - 0.001);
      expect(Number(status.forecast)).toBeLessThanOrEqual(forecastAt(before) + 0.001);
      expect(
        (await call('get', `/api/v0/budgets/${labelled.id}/`, owner)).body.budget.status,
      ).toMatchObject({
        period_start: today(),
        period_end: today() + DAY,
        spent: '10.000',
        remaining: '90.000',
      });
      const week = (await call('get', `/api/v0/budgets/${endpoint.id}/`, owner)).body.budget.status;
      expect(week.spent).toBe('0.001');
      const monday = today() - ((new Date(today() * 1000).getUTCDay() + 6) % 7) * DAY;
      expect([week.period_start, week.period_end]).toEqual([monday, monday + 7 * DAY]);
    });
  });

  describe('alerts, exactly once', () => {
    it('sixteen parallel writers, the write path and two sweeps: each threshold one row and one mail', async () => {
      const owner = await newUser();
      const budget = (await create({ name: 'parallel', amount: '16', period: 'month' }, owner)).body
        .budget;
      const mailsOf = (mail: SunkMail) =>
        mail.to.includes(owner.email) && subjectOf(mail).includes('"parallel"');
      // Sixteen writers at once, 1.000 each: the spend climbs through 50, 80 and 100 % while
      // each write's evaluation, the api's sweep and the other process's sweep race.
      await Promise.all(Array.from({ length: 16 }, () => charge({ userId: owner.id }, '1')));
      const rows = await waitFor(
        () => alertRows(budget.id),
        (found) => found.length === 3 && found.every((row) => row.mail_sent_at !== null),
        { what: 'three alerts, their mails sent' },
      );
      expect(rows.map((row) => row.threshold)).toEqual([50, 80, 100]);
      for (const row of rows)
        expect(Number(row.spent)).toBeGreaterThanOrEqual(row.threshold * 0.16);
      const mails = await sink.waitForMail(mailsOf, 3);
      expect(mails.map(subjectOf).sort()).toEqual([
        'GPU Marketplace budget alert: "parallel" reached 100%',
        'GPU Marketplace budget alert: "parallel" reached 50%',
        'GPU Marketplace budget alert: "parallel" reached 80%',
      ]);
      expect(mails[0].text).toContain('spent of $16.000 this month');
      // Another write and a full sweep pass of the other process later: still three.
      await charge({ userId: owner.id }, '1');
      const passes = await sweepPasses(sweeper);
      await waitFor(
        () => sweepPasses(sweeper),
        (count) => count > passes,
        {
          what: 'another sweep pass of the second process',
        },
      );
      expect(await alertRows(budget.id)).toHaveLength(3);
      expect(sink.messages.filter(mailsOf)).toHaveLength(3);
      const listed = await call('get', `/api/v0/budgets/${budget.id}/alerts/`, owner);
      expect(listed.status).toBe(200);
      expect(
        listed.body.alerts
          .map((alert: { threshold: number }) => alert.threshold)
          .sort((a: number, b: number) => a - b),
      ).toEqual([50, 80, 100]);
      const created = listed.body.alerts.map((alert: { created_at: number; id: number }) => [
        alert.created_at,
        alert.id,
      ]);
      expect(created).toEqual(
        [...created].sort((a: number[], b: number[]) => b[0] - a[0] || b[1] - a[1]),
      );
      expect(listed.body.alerts[0]).toEqual({
        id: expect.any(Number),
        threshold: expect.any(Number),
        period_start: expect.any(Number),
        period_end: expect.any(Number),
        spent: expect.stringMatching(/^\d+\.\d{3}$/),
        amount: '16.000',
        created_at: expect.any(Number),
      });
    });

    it('an alert whose mail was lost after the commit (a crash) is mailed once by the sweep', async () => {
      const owner = await newUser();
      const budget = (await create({ name: 'crashed', amount: '10', period: 'day' }, owner)).body
        .budget;
      // As if the process died between the evaluation's commit and queueing the mail: the
      // row with its mail pending, no job.
      await db.query(
        `INSERT INTO budget_alerts (budget_id, threshold, period_start, period_end, spent, amount, created_at)
         VALUES ($1, 50, to_timestamp($2), to_timestamp($3), 5, 10, now() - interval '10 seconds')`,
        [budget.id, today(), today() + DAY],
      );
      const [mail] = await sink.waitForMail(
        (sent) => sent.to.includes(owner.email) && subjectOf(sent).includes('"crashed"'),
        1,
      );
      expect(subjectOf(mail)).toBe('GPU Marketplace budget alert: "crashed" reached 50%');
      await waitFor(
        () => alertRows(budget.id),
        (rows) => rows[0]?.mail_sent_at !== null,
        { what: 'the swept mail marked sent' },
      );
      // The spend is 0: the sweeps' evaluations add nothing, and nothing is mailed again.
      const passes = await sweepPasses(api);
      await waitFor(
        () => sweepPasses(api),
        (count) => count > passes + 1,
        {
          what: 'two more sweep passes',
        },
      );
      expect(
        sink.messages.filter(
          (sent) => sent.to.includes(owner.email) && subjectOf(sent).includes('"crashed"'),
        ),
      ).toHaveLength(1);
    });
  });
});

/**
 * A mail's subject as its reader sees it: a subject with quotes is sent MIME-encoded
 * (`=?UTF-8?Q?...?=` words, RFC 2047).
 */
function subjectOf(mail: SunkMail): string {
  return mail.subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_hex, code: string) =>
                String.fromCharCode(parseInt(code, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}

/** How many passes an api's budget sweep has finished (budget_sweep_passes_total). */
async function sweepPasses(api: TestApi): Promise<number> {
  const text = await (await fetch(`${api.metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith('budget_sweep_passes_total '));
  return line ? Number(line.split(' ').pop()) : 0;
}
