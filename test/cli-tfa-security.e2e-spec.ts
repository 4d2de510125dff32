import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  cookieValue,
  listDevices,
  passwordTotpUser,
  rememberedLogin,
} from '@test/support/account-security';
import { CliResult, runCli, runCommandLine, tempConfigHome } from '@test/support/cli';
import { sql } from '@test/support/tfa';

/** `gpumkt tfa events` and `gpumkt tfa devices [--revoke ID]` against the real api. */
describe('gpumkt tfa events and devices', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const envFor = (user: TestUser) => ({
    XDG_CONFIG_HOME: tempConfigHome(),
    GPUMKT_URL: api.url,
    GPUMKT_API_KEY: user.apiKey,
  });
  const ok = (result: CliResult): CliResult => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
    return result;
  };

  it('tfa events prints a table newest first, and the command for the next page, which works', async () => {
    const user = await createTestUser(api);
    await sql(
      api,
      `INSERT INTO tfa_security_events (user_id, kind, method, client_address, user_agent, created_at)
       SELECT $1, 'login', 'totp', '203.0.113.9', 'Browser/' || g, timestamptz '2026-01-02 09:00Z' + g * interval '1 minute'
         FROM generate_series(1, 3) g`,
      [user.id],
    );
    const env = envFor(user);
    const first = ok(await runCli(['tfa', 'events', '--limit', '2'], { env }));
    const lines = first.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'time (UTC)        kind   method  address      user agent',
      '2026-01-02 09:03  login  totp    203.0.113.9  Browser/3',
      '2026-01-02 09:02  login  totp    203.0.113.9  Browser/2',
    ]);
    const next = /^Next page: (gpumkt tfa events --limit 2 --next \S+)$/m.exec(first.stdout);
    expect(next).not.toBeNull();
    expect(first.stderr).toBe('');

    // The printed command works verbatim.
    const second = ok(await runCommandLine(next![1], { env }));
    expect(second.stdout).toBe(
      [
        'time (UTC)        kind   method  address      user agent',
        '2026-01-02 09:01  login  totp    203.0.113.9  Browser/1',
        '',
      ].join('\n'),
    );
  });

  it('tfa events --raw prints the api document; nothing yet says so', async () => {
    const user = await createTestUser(api);
    const env = envFor(user);
    const raw = ok(await runCli(['tfa', 'events', '--raw'], { env }));
    expect(JSON.parse(raw.stdout)).toEqual({ success: true, events: [], next_token: null });
    expect(ok(await runCli(['tfa', 'events'], { env })).stdout).toBe('No security events.\n');
  });

  it('a refused token is reported like every api error, exit 1', async () => {
    const user = await createTestUser(api);
    const result = await runCli(['tfa', 'events', '--next', 'garbage'], { env: envFor(user) });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error 400 invalid_token: Invalid pagination token\n' +
        'Hint: a --next token only continues the listing of the account it came from; ' +
        'run "gpumkt tfa events" without --next to start from the newest event.\n',
    });
  });

  it('tfa devices lists the trusted devices; --revoke ID takes one back; another user’s id is 404', async () => {
    const account = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const remembered = await rememberedLogin(api, account, { 'User-Agent': 'Laptop/1.0' });
    expect(cookieValue(remembered, 'gm_device')).toBeDefined();
    const [device] = (await listDevices(api, account.user.auth)).body.devices;
    const env = envFor(account.user);

    const listed = ok(await runCli(['tfa', 'devices'], { env }));
    const [header, row] = listed.stdout.split('\n');
    expect(header.split(/\s{2,}/)).toEqual([
      'id',
      'created',
      'last used',
      'expires',
      'address',
      'user agent',
    ]);
    expect(row.split(/\s{2,}/)).toEqual([
      String(device.id),
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      '-',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      expect.stringMatching(/127\.0\.0\.1$/),
      'Laptop/1.0',
    ]);
    expect(listed.stdout).toContain('Revoke one with: gpumkt tfa devices --revoke ID');
    const raw = ok(await runCli(['tfa', 'devices', '--raw'], { env }));
    expect(JSON.parse(raw.stdout)).toEqual({ success: true, devices: [device] });

    const other = await createTestUser(api);
    const foreign = await runCli(['tfa', 'devices', '--revoke', String(device.id)], {
      env: envFor(other),
    });
    expect(foreign).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error 404 not_found: No trusted device ${device.id}.\n`,
    });

    const revoked = ok(await runCli(['tfa', 'devices', '--revoke', String(device.id)], { env }));
    expect(revoked.stdout).toBe(
      `Trusted device ${device.id} revoked: its browser needs the second factor again.\n`,
    );
    expect(ok(await runCli(['tfa', 'devices'], { env })).stdout).toBe(
      'No trusted devices: every password login asks for the second factor.\n',
    );
    const again = await runCli(['--raw', 'tfa', 'devices', '--revoke', String(device.id)], { env });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toEqual({
      success: false,
      error: 'not_found',
      msg: `No trusted device ${device.id}.`,
    });
  });
});
