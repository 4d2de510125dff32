import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticator } from 'otplib';
import { runManage, spawnApi, SpawnedProcess } from '@test/support/api';
import { ConformingClient } from '@test/support/conforming-client';
import { freePort } from '@test/support/own-redis';
import { SmtpSink, startSmtpSink } from '@test/support/smtp-sink';

/**
 * The embedded mode (README "Embedded mode") as a first run sees it: the built api on
 * PGlite with in-process Redis, rate limits and delivery queue, fixtures loaded with the
 * manage command into the same data directory before it starts. DATABASE_URL and REDIS_URL
 * point at closed ports, as on a machine with no services: anything that still reached for
 * a real PostgreSQL or Redis would fail here. The smoke subset of the e2e suite runs over
 * HTTP, every response checked against the OpenAPI document the process serves.
 */
describe('embedded mode: smoke over HTTP', () => {
  const USER = { id: 9901, email: 'embedded-smoke@example.test', key: 'embedded-smoke-key-9901' };
  const auth = { Authorization: `Bearer ${USER.key}` };
  const DAY = 1767225600; // 2026-01-01 UTC
  let dataDir: string;
  let sink: SmtpSink;
  let env: Record<string, string>;
  let api: SpawnedProcess;
  let client: ConformingClient;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gpumarket-embedded-'));
    sink = await startSmtpSink();
    env = {
      // Any true word forces the mode (with the URLs below pointing nowhere, anything else
      // would fail to start): EMBEDDED is read as every other on/off setting.
      EMBEDDED: '1',
      EMBEDDED_DATA_DIR: join(dataDir, 'pglite'),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nowhere`,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      EMAIL_PROVIDER: 'smtp',
      SMTP_HOST: sink.host,
      SMTP_PORT: String(sink.port),
      SMTP_TLS: 'none',
      SMTP_FROM: 'GPU Marketplace <no-reply@gpumarket.test>',
    };
    const fixtures = join(dataDir, 'fixtures.json');
    writeFileSync(
      fixtures,
      JSON.stringify({
        users: [{ id: USER.id, email: USER.email, verified: true, api_key: USER.key }],
        contracts: [
          {
            id: 99001,
            user_id: USER.id,
            kind: 'instance',
            start: DAY,
            end: DAY + 2 * 86400,
            label: 'smoke',
            charges: [
              { day: DAY, type: 'gpu', quantity: '24', unit: 'hours', rate: '0.5', amount: '12' },
              {
                day: DAY + 86400,
                type: 'disk',
                quantity: '10',
                unit: 'GB',
                rate: '0.05',
                amount: '0.5',
              },
            ],
          },
        ],
        volume_listings: [{ id: 99101, owner_id: USER.id, machine_id: 99201, size_gb: 100 }],
      }),
    );
    // Before the api starts, manage opens the data directory itself (under its lock).
    const loaded = await runManage(['fixtures:load', fixtures], env);
    if (loaded.code !== 0) throw new Error(`fixtures:load failed: ${loaded.stderr}`);
    api = await spawnApi(env, 100_000);
    client = await ConformingClient.connect(api.url);
  }, 120_000);

  afterAll(async () => {
    // Normally stopped by the last test; a failed run must not leave the process behind.
    if (api && api.child.exitCode === null && api.child.signalCode === null)
      await api.stop('SIGKILL');
    await sink?.close();
    rmSync(dataDir, { recursive: true, force: true });
    client?.assertConformed();
  });

  it('says loudly that it runs embedded, and is ready', async () => {
    expect(api.output.join('\n')).toContain('EMBEDDED MODE');
    expect(api.output.join('\n')).toContain('"embedded":true');
    const ready = await fetch(`${api.url}/health/ready`);
    expect(ready.status).toBe(200);
  });

  it('refuses a request without credentials (403) and an unknown key (404)', async () => {
    const anonymous = await client.get('/api/v0/users/current/');
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'This action requires login.',
    });
    const unknown = await client.get('/api/v0/users/current/', {
      headers: { Authorization: 'Bearer not-a-key' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: 'auth_error', msg: 'Invalid user key' });
  });

  it('serves the charges report of the fixture user', async () => {
    const filters = encodeURIComponent(JSON.stringify({ day: { gte: DAY, lte: DAY + 3 * 86400 } }));
    const report = await client.get(`/api/v0/charges/?select_filters=${filters}`, {
      headers: auth,
    });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ success: true, count: 1, total: 1, next_token: null });
    expect(report.body.results[0]).toMatchObject({
      type: 'instance',
      source: 'instance-99001',
      start: DAY,
      end: DAY + 2 * 86400,
      amount: 12.5,
      metadata: { label: 'smoke' },
    });
    expect(
      report.body.results[0].items.map((item: { type: string; amount: number }) => [
        item.type,
        item.amount,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['gpu', 12],
        ['disk', 0.5],
      ]),
    );
  });

  it('enrols an authenticator app authorized by an emailed code, then logs in with a backup code', async () => {
    const start = await client.post('/api/v0/tfa/authorize-new-method/', {
      headers: auth,
      json: { tfa_method: 'email' },
    });
    expect(start.status).toBe(200);
    // Delivered by the in-process queue through the SMTP provider.
    const [mail] = await sink.waitForMail((message) => message.to.includes(USER.email), 1);
    const emailed = /\b(\d{6})\b/.exec(mail.text)![1];
    const authorized = await client.put('/api/v0/tfa/authorize-new-method/', {
      headers: auth,
      json: { secret: start.body.secret, code: emailed },
    });
    expect(authorized.status).toBe(200);

    const setup = await client.post('/api/v0/tfa/totp-setup/', { headers: auth, json: {} });
    expect(setup.status).toBe(200);
    const confirmed = await client.post('/api/v0/tfa/confirm-new/', {
      headers: auth,
      json: {
        tfa_method: 'totp',
        code: authenticator.generate(setup.body.secret),
        secret: setup.body.secret,
      },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.backup_codes).toHaveLength(10);

    const login = await client.post('/api/v0/tfa/', {
      headers: auth,
      json: { backup_code: confirmed.body.backup_codes[0] },
    });
    expect(login.status).toBe(200);
    expect(typeof login.body.session_key).toBe('string');
    const me = await client.get('/api/v0/users/current/', {
      headers: { Authorization: `Bearer ${login.body.session_key}` },
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: USER.id, tfa_status: 'enabled' });
  });

  it('unlists a volume', async () => {
    const unlisted = await client.post('/api/v0/volumes/unlist/', {
      headers: auth,
      json: { id: 99101 },
    });
    expect(unlisted.status).toBe(200);
    expect(unlisted.body).toEqual({ success: true, msg: 'Unlisted Volume 99101.' });
  });

  it('creates an endpoint group and lists it', async () => {
    const created = await client.post('/api/v0/endptjobs/', {
      headers: auth,
      json: { endpoint_name: 'embedded-smoke', target_util: 0.8 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ success: true, result: expect.any(Number) });
    const listed = await client.get('/api/v0/endptjobs/', { headers: auth });
    expect(listed.status).toBe(200);
    expect(listed.body.results).toEqual([
      expect.objectContaining({
        id: created.body.result,
        endpoint_name: 'embedded-smoke',
        target_util: 0.8,
        user_id: USER.id,
      }),
    ]);
  });

  it('stops on SIGTERM, closing PGlite, with exit code 0', async () => {
    expect(await api.stop('SIGTERM')).toBe(0);
  });
});
