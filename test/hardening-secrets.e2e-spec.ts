import { execFileSync } from 'node:child_process';
import request from 'supertest';
import Redis from 'ioredis';
import { createApiClient } from '@app/api-client';
import { createTestUser, spawnApi, SpawnedProcess, startApi, TestApi } from '@test/support/api';
import { TEST_DATABASE_URL } from '@test/support/test-env';
import { enableTotp, readCode, testPhone, totpCode, forgetTotpUse } from '@test/support/tfa';
import { passwordLogin, sendEmail, tfaLogin, totpSetup } from '@test/support/tfa-requests';

/**
 * Secrets at rest: after real flows, neither a PostgreSQL dump, nor any Redis key, nor
 * the api's own logs (at debug level) may contain a credential or code in plaintext.
 * The development outbox table is the one exception by design: it IS the delivered message.
 */
describe('no secret in plaintext at rest or in logs', () => {
  let spawned: SpawnedProcess;
  let local: TestApi;
  let api: TestApi;
  const secrets = new Map<string, string>();
  const codes = new Map<string, string>();

  const keep = (kind: string, value: unknown) => {
    if (typeof value !== 'string' || value.length === 0) throw new Error(`expected a ${kind}`);
    secrets.set(value, kind);
  };

  beforeAll(async () => {
    spawned = await spawnApi({ LOG_LEVEL: 'debug' });
    local = await startApi({ RUN_WORKER: 'false' });
    // Requests go to the spawned process (whose logs we read), the set-up helpers' typed
    // ones too; helpers read state locally.
    api = {
      ...local,
      http: () => request(spawned.url),
      client: createApiClient({ baseUrl: spawned.url }),
    };
  });

  afterAll(async () => {
    await spawned?.stop();
    await local?.close();
  });

  it('runs the flows that handle every kind of secret', async () => {
    const password = 'correct horse battery staple';
    const user = await createTestUser(local, { password, phone: testPhone() });
    keep('api key', user.apiKey);
    keep('password', password);

    const login = await passwordLogin(api, { email: user.email, password });
    keep('session key', login.body.session_key);

    const totp = await enableTotp(api, user);
    keep('totp secret', totp.secret);
    for (const code of totp.backupCodes) {
      keep('backup code', code);
      keep('backup code', code.replace(/-/g, ''));
    }

    const challenge = await passwordLogin(api, { email: user.email, password });
    expect(challenge.body.tfa_required).toBe(true);
    keep('tfa_secret', challenge.body.tfa_secret);
    const code = totpCode(totp.secret);
    codes.set(code, 'totp code');
    const completed = await tfaLogin(api, null, {
      tfa_method: 'totp',
      code,
      secret: challenge.body.tfa_secret,
    });
    expect(completed.status).toBe(200);
    keep('session key', completed.headers['x-session-key']);
    await forgetTotpUse(local, totp.methodId);

    const backupLogin = await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[0] });
    expect(backupLogin.status).toBe(200);
    keep('session key', backupLogin.body.session_key);

    const email = await sendEmail(api, user.auth, {});
    keep('tfa_secret', email.body.secret);
    codes.set(await readCode(local, user.email), 'email code');

    const setup = await totpSetup(api, user.auth, {});
    keep('totp secret', setup.body.secret);

    const group = await api
      .http()
      .post('/api/v0/endptjobs/')
      .set(user.auth)
      .send({ endpoint_name: 'secrets-scan' });
    expect(group.status).toBe(200);
    const groups = await api.http().get('/api/v0/endptjobs/').set(user.auth);
    keep(
      'endpoint group key',
      groups.body.results.find((row: { id: number }) => row.id === group.body.result).api_key,
    );
    expect(secrets.size).toBeGreaterThan(15);
  });

  it('finds none of them in a dump of PostgreSQL', () => {
    const dump = execFileSync(
      'pg_dump',
      ['--data-only', '--exclude-table-data=tfa_outbox_messages', TEST_DATABASE_URL],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      },
    );
    expect(dump.length).toBeGreaterThan(1000);
    expect(leaks(dump, secrets)).toEqual([]);
    const tfaTables = execFileSync(
      'pg_dump',
      ['--data-only', '--table=tfa_methods', '--table=tfa_backup_codes', TEST_DATABASE_URL],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      },
    );
    expect(leaks(tfaTables, codes, true)).toEqual([]);
  });

  it('finds none of them in any Redis key or value', async () => {
    const redis = local.app.get(Redis);
    let everything = '';
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
      cursor = next;
      for (const key of keys) everything += `${key}\n${await dumpValue(redis, key)}\n`;
    } while (cursor !== '0');
    expect(everything.length).toBeGreaterThan(0);
    expect(leaks(everything, secrets)).toEqual([]);
    expect(leaks(everything, codes, true)).toEqual([]);
  });

  it("finds none of them in the api's logs", () => {
    const logs = spawned.output.join('\n');
    expect(logs).toContain('"req"');
    expect(leaks(logs, secrets)).toEqual([]);
    expect(leaks(logs, codes, true)).toEqual([]);
  });
});

function leaks(haystack: string, needles: Map<string, string>, wholeWord = false): string[] {
  const lower = haystack.toLowerCase();
  const found: string[] = [];
  for (const [needle, kind] of needles) {
    const hit = wholeWord
      ? new RegExp(`(^|[^0-9])${needle}([^0-9]|$)`).test(haystack)
      : lower.includes(needle.toLowerCase());
    if (hit) found.push(`${kind} found in plaintext`);
  }
  return found;
}

async function dumpValue(redis: Redis, key: string): Promise<string> {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'list':
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    case 'zset':
      return JSON.stringify(await redis.zrange(key, 0, -1));
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}
