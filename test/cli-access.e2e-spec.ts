import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { cliEnvFor, rawDocument, runCli, runCommandLine, succeeded } from '@test/support/cli';

/** `gpumkt keys ...`, `gpumkt sessions ...` and `gpumkt audit` against the real api. */
describe('gpumkt keys, sessions and audit', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const envFor = (key: string) => cliEnvFor(api.url, key);
  const ok = succeeded;

  it('keys create prints the key once on a line of its own; the key works within what it was given', async () => {
    const user = await createTestUser(api);
    const created = ok(
      await runCli(['keys', 'create', '--name', 'accountant', '--allow', 'billing_read'], {
        env: envFor(user.apiKey),
      }),
    );
    const lines = created.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^API key \d+ created \(accountant, gmk_\w{4}\.\.\., billing_read\)\.$/,
    );
    expect(lines[1]).toMatch(/^gmk_[0-9A-Za-z]{43}$/);
    expect(lines[2]).toContain('It is shown this once');
    const key = lines[1];
    const denied = await runCli(['show', 'user'], { env: envFor(key) });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain(
      'Error 403 permission_denied: Permission denied: this key lacks user_read',
    );

    // A permission file and an expiry.
    const dir = mkdtempSync(join(tmpdir(), 'gpumkt-perms-'));
    const file = join(dir, 'ci.json');
    writeFileSync(file, JSON.stringify({ api: { misc: { 'api.endptjobs.list': {} } } }));
    const ci = rawDocument<{
      id: number;
      expires_at: number;
      created_at: number;
      permissions: unknown;
    }>(
      ok(
        await runCli(
          ['--raw', 'keys', 'create', '--name', 'ci', '--permission-file', file, '--expires', '2h'],
          {
            env: envFor(user.apiKey),
          },
        ),
      ),
    );
    expect(ci.permissions).toEqual({ api: { misc: { 'api.endptjobs.list': {} } } });
    expect(ci.expires_at - ci.created_at).toBe(7200);

    const list = ok(await runCli(['keys', 'list'], { env: envFor(user.apiKey) }));
    expect(list.stdout.split('\n')[0]).toMatch(
      /^id\s+name\s+prefix\s+permissions\s+created\s+last used\s+expires$/,
    );
    expect(list.stdout).toMatch(/\*-\s+gmk_\w{4}\.\.\.\s+full/);
    expect(list.stdout).toMatch(/accountant\s+gmk_\w{4}\.\.\.\s+billing_read/);
    expect(list.stdout).toMatch(/ci\s+gmk_\w{4}\.\.\.\s+misc\*/);
    expect(list.stdout).not.toContain(key);

    const shown = ok(await runCli(['keys', 'show', String(ci.id)], { env: envFor(user.apiKey) }));
    expect(shown.stdout).toContain('permissions  {"api":{"misc":{"api.endptjobs.list":{}}}}');
    const deleted = ok(
      await runCli(['keys', 'delete', String(ci.id)], { env: envFor(user.apiKey) }),
    );
    expect(deleted.stdout).toBe(`API key ${ci.id} deleted.\n`);

    // A scoped key cannot make a broader one: the api's refusal, exit 1.
    const refused = await runCli(['keys', 'create', '--allow', 'misc'], { env: envFor(key) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error 403 permission_denied');
  });

  it('keys reset prints the new main key; the old one stops working', async () => {
    const user = await createTestUser(api);
    const reset = ok(await runCli(['keys', 'reset'], { env: envFor(user.apiKey) }));
    const [headline, key] = reset.stdout.split('\n');
    expect(headline).toMatch(
      /^Main API key replaced: the previous one no longer works\. New key \d+ \(gmk_\w{4}\.\.\.\):$/,
    );
    expect(ok(await runCli(['show', 'user'], { env: envFor(key) })).stdout).toContain(user.email);
    expect((await runCli(['show', 'user'], { env: envFor(user.apiKey) })).stderr).toContain(
      'Error 404 auth_error: Invalid user key',
    );
  });

  it('sessions list marks this session; sessions end ID and --all end them', async () => {
    const password = 'cli sessions 1';
    const user: TestUser = await createTestUser(api, { password });
    const login = async (agent: string) =>
      (
        await api
          .http()
          .post('/api/v0/users/login/')
          .set('User-Agent', agent)
          .send({ email: user.email, password })
      ).body.session_key as string;
    const mine = await login('laptop');
    const other = await login('phone');
    const third = await login('tablet');
    const listed = ok(await runCli(['sessions', 'list'], { env: envFor(mine) }));
    const lines = listed.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+opened\s+last used\s+address\s+user agent\s+trusted device$/);
    expect(lines.slice(1, 4).map((line) => line.split(/\s{2,}/)[0].startsWith('*'))).toEqual([
      false,
      false,
      true,
    ]);
    const otherId = (
      await api.http().get('/api/v0/auth/sessions/').set('Authorization', `Bearer ${other}`)
    ).body.sessions[1].id as number;
    expect(
      ok(await runCli(['sessions', 'end', String(otherId)], { env: envFor(mine) })).stdout,
    ).toBe(`Session ${otherId} ended.\n`);
    expect(ok(await runCli(['sessions', 'end', '--all'], { env: envFor(mine) })).stdout).toBe(
      '1 other session ended, 0 trusted devices revoked.\n',
    );
    for (const ended of [other, third])
      expect(
        (await api.http().get('/api/v0/users/current/').set('Authorization', `Bearer ${ended}`))
          .status,
      ).toBe(404);
  });

  it('audit prints the log newest first, and the command for the next page, which works', async () => {
    const user = await createTestUser(api);
    for (const name of ['first', 'second', 'third'])
      await api
        .http()
        .post('/api/v0/endptjobs/')
        .set(user.auth)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ endpoint_name: name }));
    const env = envFor(user.apiKey);
    const first = ok(await runCli(['audit', '--limit', '2'], { env }));
    const lines = first.stdout.split('\n');
    expect(lines[0]).toMatch(/^time \(UTC\)\s+address\s+credential\s+route\s+arguments$/);
    expect(lines[1]).toMatch(
      /127\.0\.0\.1\s+key \d+\s+POST \/api\/v0\/endptjobs\/\s+\{"endpoint_name":"third"\}$/,
    );
    expect(lines[2]).toMatch(/\{"endpoint_name":"second"\}$/);
    const next = /^Next page: (gpumkt audit --limit 2 --next \S+)$/m.exec(first.stdout);
    expect(next).not.toBeNull();
    const second = ok(await runCommandLine(next![1], { env }));
    expect(second.stdout.split('\n')[1]).toMatch(/\{"endpoint_name":"first"\}$/);
    expect(second.stdout).not.toContain('Next page');
    const raw = rawDocument<{ entries: unknown[]; next_token: string | null }>(
      ok(await runCli(['--raw', 'audit'], { env })),
    );
    expect(raw.entries).toHaveLength(3);
    expect(raw.next_token).toBeNull();
  });
});
