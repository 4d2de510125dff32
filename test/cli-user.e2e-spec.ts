import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { TransactionalEntityManager } from '@app/platform';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { expectNoStackTrace, rawDocument, runCli, tempConfigHome } from '@test/support/cli';
import { passwordLogin } from '@test/support/tfa-requests';

/** gpumkt against the real api: user commands, key resolution, errors, exit codes, sessions. */
describe('gpumkt: user, keys, errors and sessions', () => {
  let api: TestApi;
  let user: TestUser;

  beforeAll(async () => {
    api = await startApi();
    user = await createTestUser(api, { fullName: 'Grace Hopper', credit: 12.5 });
  });
  afterAll(() => api.close());

  const configFile = (home: string, name: string) => join(home, 'gpumkt', name);

  it('saves the API key with mode 0600 and uses it for show user (table and --raw)', async () => {
    const home = tempConfigHome();
    const env = { XDG_CONFIG_HOME: home, GPUMKT_URL: api.url };

    const saved = await runCli(['set', 'api-key', user.apiKey], { env });
    expect(saved).toMatchObject({ code: 0, stderr: '' });
    expect(saved.stdout).toBe(`Your API key has been saved in ${configFile(home, 'api_key')}\n`);
    expect(readFileSync(configFile(home, 'api_key'), 'utf8')).toBe(user.apiKey);
    expect(statSync(configFile(home, 'api_key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'gpumkt')).mode & 0o777).toBe(0o700);

    const table = await runCli(['show', 'user'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^email\s+\S+@example\.test$/m);
    expect(table.stdout).toMatch(/^credit\s+12\.50$/m);
    expect(table.stdout).toMatch(/^fullname\s+Grace Hopper$/m);
    expect(table.stdout).not.toContain(user.apiKey);

    const raw = await runCli(['show', 'user', '--raw'], { env });
    expect(raw.code).toBe(0);
    const document = JSON.parse(raw.stdout);
    expect(document).toMatchObject({ id: user.id, email: user.email, credit: 12.5 });
    expect(document).not.toHaveProperty('api_key');
    expect(raw.stderr).toBe('');
  });

  it('replaces a stored session key on set api-key, and says so; --raw gives one document', async () => {
    const home = tempConfigHome();
    mkdirSync(join(home, 'gpumkt'), { recursive: true });
    writeFileSync(configFile(home, 'session_key'), 'an-old-session');
    const saved = await runCli(['set', 'api-key', user.apiKey, '--raw'], {
      env: { XDG_CONFIG_HOME: home, GPUMKT_API_KEY: 'from-the-environment' },
    });
    expect(rawDocument(saved)).toEqual({
      saved: configFile(home, 'api_key'),
      session_key_removed: true,
    });
    expect(saved.stderr).toBe(
      'Removed the stored 2FA session key of the previous key.\n' +
        'Warning: $GPUMKT_API_KEY is set and takes precedence over the saved key.\n',
    );
    expect(existsSync(configFile(home, 'session_key'))).toBe(false);
    expect(statSync(configFile(home, 'api_key')).mode & 0o777).toBe(0o600);
  });

  it('explains each request on stderr with the key redacted, global options before or after', async () => {
    const before = await runCli([
      '--explain',
      '--url',
      api.url,
      '--api-key',
      user.apiKey,
      'show',
      'user',
      '--raw',
    ]);
    const after = await runCli([
      'show',
      'user',
      '--raw',
      '--explain',
      '--api-key',
      user.apiKey,
      '--url',
      api.url,
    ]);
    for (const result of [before, after]) {
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).id).toBe(user.id);
      expect(result.stderr).toContain(`[explain] GET ${api.url}/api/v0/users/current\n`);
      expect(result.stderr).toContain('Authorization: Bearer <redacted> (key from --api-key)');
      expect(result.stderr).not.toContain(user.apiKey);
    }
  });

  it('resolves the key: --api-key, then $GPUMKT_API_KEY, then the session file, then the key file', async () => {
    const other = await createTestUser(api);
    const session = await passwordSession(api);
    const home = tempConfigHome();
    mkdirSync(join(home, 'gpumkt'), { recursive: true });
    writeFileSync(configFile(home, 'api_key'), `${user.apiKey}\n`);
    const base = { XDG_CONFIG_HOME: home, GPUMKT_URL: api.url };
    const who = async (args: string[], env: Record<string, string>) => {
      const result = await runCli(['show', 'user', '--raw', ...args], { env });
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout).id as number;
    };

    expect(await who([], base)).toBe(user.id);
    writeFileSync(configFile(home, 'session_key'), session.key);
    expect(await who([], base)).toBe(session.userId);
    expect(await who([], { ...base, GPUMKT_API_KEY: other.apiKey })).toBe(other.id);
    expect(await who(['--api-key', user.apiKey], { ...base, GPUMKT_API_KEY: other.apiKey })).toBe(
      user.id,
    );
  });

  it('reports api errors as "Error <status> <error>: <msg>" with exit 1, and as JSON on stderr with --raw', async () => {
    const home = tempConfigHome();
    const env = { XDG_CONFIG_HOME: home, GPUMKT_URL: api.url };
    const noKey = await runCli(['show', 'user'], { env });
    expect(noKey.code).toBe(1);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toMatch(/^Error 403 auth_error: This action requires login\.\n/);

    const badKey = await runCli(['show', 'user', '--raw', '--api-key', 'no-such-key'], { env });
    expect(badKey.code).toBe(1);
    expect(badKey.stdout).toBe('');
    expect(JSON.parse(badKey.stderr)).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'Invalid user key',
    });
  });

  it('exits 2 on usage errors without a stack trace, and 0 for --help', async () => {
    const env = { XDG_CONFIG_HOME: tempConfigHome(), GPUMKT_URL: api.url };
    for (const args of [
      ['show', 'nothing'],
      ['frobnicate'],
      ['create', 'endpoint', '--target_util', '1.5'],
      ['create', 'endpoint', '--max_workers', '2.5'],
      ['show', 'invoices'],
      ['show', 'invoices', '-c', '-s', '2025-13-01'],
      ['unlist', 'volume', 'abc'],
      ['--retry', 'x', 'show', 'user'],
    ]) {
      const result = await runCli(args, { env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/error/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const target = await runCli(['create', 'endpoint', '--target_util', '1.5'], { env });
    expect(target.stderr).toContain(
      "'--target_util <fraction>' argument '1.5' is invalid. Must be at most 1.0.",
    );
    const help = await runCli(['create', 'endpoint', '--help'], { env });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--target_util <fraction>');
    expect(help.stdout).toContain('(default: 0.9)');
    expect(help.stdout).toContain('Examples:');
  });

  it('retries a connection failure, then exits 1 with one line', async () => {
    const port = await closedPort();
    const result = await runCli(['show', 'user', '--retry', '2', '--explain', '--api-key', 'k'], {
      env: { GPUMKT_URL: `http://127.0.0.1:${port}`, XDG_CONFIG_HOME: tempConfigHome() },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.match(/\[explain\] GET /g)).toHaveLength(3);
    expect(result.stderr).toMatch(/ECONNREFUSED: retry 2 of 2/);
    expect(result.stderr).toMatch(/Error: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\n$/);
    expectNoStackTrace(result);
  });

  it('reports an answer that is not JSON in one line, without a stack trace', async () => {
    // A web server that is not the api: a proxy whose upstream is down (502 page) and a
    // default site (200 page), as a wrong --url or a broken proxy would give.
    const site = createHttpServer((request, response) => {
      const upstreamDown = request.url?.startsWith('/api/v0/charges/');
      response.writeHead(upstreamDown ? 502 : 200, { 'Content-Type': 'text/html' });
      response.end(
        upstreamDown
          ? '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'
          : '<!doctype html><html><head><title>Welcome to nginx!</title></head><body>It works</body></html>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const address = site.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const env = {
        GPUMKT_URL: url,
        GPUMKT_API_KEY: user.apiKey,
        XDG_CONFIG_HOME: tempConfigHome(),
      };
      const page = await runCli(['show', 'user'], { env });
      expect(page.code).toBe(1);
      expect(page.stdout).toBe('');
      expect(page.stderr).toBe(
        `Error: ${url} answered 200 with a body that is not JSON (text/html: Welcome to nginx!); ` +
          "check that --url (or $GPUMKT_URL) is the api's address\n",
      );
      expectNoStackTrace(page);

      const gateway = await runCli(['show', 'invoices', '-c', '--retry', '1', '--explain'], {
        env,
      });
      expect(gateway.code).toBe(1);
      expect(gateway.stderr.match(/\[explain\] GET /g)).toHaveLength(2);
      expect(gateway.stderr).toMatch(
        /\nError 502: 502 Bad Gateway\nHint: this answer is not JSON, so it did not come from the api: check --url \(or \$GPUMKT_URL\) and any proxy in front of the api\.\n$/,
      );
      expectNoStackTrace(gateway);

      const raw = await runCli(['show', 'invoices', '-c', '--retry', '0', '--raw'], { env });
      expect(raw.code).toBe(1);
      expect(raw.stdout).toBe('');
      expect(JSON.parse(raw.stderr)).toEqual({
        success: false,
        status: 502,
        msg: '502 Bad Gateway',
      });
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('falls back from an expired session to the saved API key, with a notice, and forgets the session', async () => {
    const session = await passwordSession(api);
    const home = tempConfigHome();
    mkdirSync(join(home, 'gpumkt'), { recursive: true });
    writeFileSync(configFile(home, 'api_key'), user.apiKey);
    writeFileSync(configFile(home, 'session_key'), session.key);
    await api.app
      .get(TransactionalEntityManager)
      .manager.query(
        `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [session.userId],
      );

    const result = await runCli(['show', 'user', '--raw', '--explain'], {
      env: { XDG_CONFIG_HOME: home, GPUMKT_URL: api.url },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(user.id);
    expect(result.stderr).toContain(`(key from ${configFile(home, 'session_key')})`);
    expect(result.stderr).toContain('Notice: your 2FA session has expired');
    expect(result.stderr).toContain(`(key from ${configFile(home, 'api_key')})`);
    expect(existsSync(configFile(home, 'session_key'))).toBe(false);

    // Without an API key file there is nothing to fall back to: exit 1 with advice.
    writeFileSync(configFile(home, 'session_key'), session.key);
    const alone = tempConfigHome();
    mkdirSync(join(alone, 'gpumkt'), { recursive: true });
    writeFileSync(configFile(alone, 'session_key'), session.key);
    const stuck = await runCli(['show', 'user'], {
      env: { XDG_CONFIG_HOME: alone, GPUMKT_URL: api.url },
    });
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain('Your 2FA session has expired and no API key is saved');
  });
});

/** A live session key of a fresh user, from the password login. */
async function passwordSession(api: TestApi): Promise<{ key: string; userId: number }> {
  const password = `pw-${randomUUID()}`;
  const sessionUser = await createTestUser(api, { password });
  const response = await passwordLogin(api, { email: sessionUser.email, password });
  if (typeof response.body.session_key !== 'string') {
    throw new Error(`login: ${JSON.stringify(response.body)}`);
  }
  return { key: response.body.session_key, userId: sessionUser.id };
}

/** A loopback port with nothing listening. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
