import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  CliResult,
  rawDocument,
  runCli,
  runCliInTerminal,
  tempConfigHome,
} from '@test/support/cli';
import {
  forgetRecentSms,
  forgetTotpUse,
  readCode,
  sql,
  testPhone,
  totpCode,
} from '@test/support/tfa';

/**
 * The 2FA commands end to end, as a user would chain them: authorize, set up TOTP,
 * activate, log in (session key stored), add and remove an SMS method, regenerate codes.
 */
describe('gpumkt tfa', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  function cliFor(user: TestUser) {
    const home = tempConfigHome();
    const env = { XDG_CONFIG_HOME: home, GPUMKT_URL: api.url, GPUMKT_API_KEY: user.apiKey };
    const run = (args: string[]) => runCli(args, { env });
    return { home, env, run };
  }

  const ok = (result: CliResult): CliResult => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
    return result;
  };
  const field = (text: string, label: string): string => {
    const match = new RegExp(`^${label}: (\\S+)$`, 'm').exec(text);
    if (!match) throw new Error(`no ${label} in:\n${text}`);
    return match[1];
  };

  it('walks a first-time setup: auth-new, totp-setup, activate with --output, status, login, update', async () => {
    const user = await createTestUser(api);
    const { home, run } = cliFor(user);

    const before = ok(await run(['tfa', 'status']));
    expect(before.stdout).toContain('2FA enabled: no');
    expect(before.stdout).toContain('No active 2FA methods found.');

    // Step 1 emails a code and prints the secret; step 2 passes both back.
    const started = ok(await run(['tfa', 'auth-new']));
    const authSecret = field(started.stdout, 'Secret');
    expect(started.stdout).toContain(`Next: gpumkt tfa auth-new -s ${authSecret} -c CODE`);
    const emailed = await readCode(api, user.email);
    const granted = ok(await run(['tfa', 'auth-new', '-s', authSecret, '-c', emailed]));
    expect(granted.stdout).toContain('Authorization successful.');

    // stdout is a pipe here: the URI and the secret, no QR code.
    const setup = ok(await run(['tfa', 'totp-setup']));
    expect(setup.stdout).toMatch(/^Provisioning URI: otpauth:\/\/totp\/\S+\?secret=/m);
    expect(setup.stdout).not.toMatch(/[▀▄█]/);
    const totpSecret = field(setup.stdout, 'Secret');

    const codesFile = join(home, 'backup-codes.txt');
    const activated = ok(
      await run([
        'tfa',
        'activate',
        totpCode(totpSecret),
        '--secret',
        totpSecret,
        '-l',
        'Phone app',
        '-o',
        codesFile,
      ]),
    );
    expect(activated.stdout).toContain(`10 backup codes written to ${codesFile} (mode 0600).`);
    const backupCodes = readFileSync(codesFile, 'utf8').trim().split('\n');
    expect(backupCodes).toHaveLength(10);
    expect(backupCodes[0]).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(statSync(codesFile).mode & 0o777).toBe(0o600);

    const status = ok(await run(['tfa', 'status', '--raw']));
    const document = JSON.parse(status.stdout);
    expect(document).toMatchObject({ tfa_enabled: true, backup_codes_remaining: 10 });
    expect(document.methods).toEqual([
      expect.objectContaining({ method: 'totp', label: 'Phone app' }),
    ]);
    const methodId = document.methods[0].id as number;
    const table = ok(await run(['tfa', 'status']));
    expect(table.stdout).toMatch(new RegExp(`^${methodId}\\s+totp\\s+Phone app\\s+yes\\s`, 'm'));

    // A wrong code: the api's error line, the failure count, exit 1, nothing stored.
    const wrong = await run(['tfa', 'login', '-t', 'totp', '-c', '000000']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^Error 400 2fa_verification_failed: .+\nFailed attempts: 1\n/);
    expect(existsSync(join(home, 'gpumkt', 'session_key'))).toBe(false);

    // From here on the key comes from the files, as for a user who ran "set api-key".
    const sessionEnv = { XDG_CONFIG_HOME: home, GPUMKT_URL: api.url };
    const inSession = (args: string[]) => runCli(args, { env: sessionEnv });
    ok(await inSession(['set', 'api-key', user.apiKey]));
    await forgetTotpUse(api, methodId);
    const login = await inSession([
      'tfa',
      'login',
      '-t',
      'totp',
      '-c',
      totpCode(totpSecret),
      '--raw',
    ]);
    const sessionFile = join(home, 'gpumkt', 'session_key');
    const loginDocument = rawDocument(login);
    expect(loginDocument).toMatchObject({ session_key_file: sessionFile, email: user.email });
    expect(loginDocument).not.toHaveProperty('session_key');
    expect(login.stderr).toBe('');
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    const sessionKey = readFileSync(sessionFile, 'utf8');
    expect(sessionKey).not.toBe(user.apiKey);

    // Later commands use the session key, for the 2FA routes too.
    const me = await inSession(['show', 'user', '--raw', '--explain']);
    expect(rawDocument<{ id: number }>(me).id).toBe(user.id);
    expect(me.stderr).toContain(`(key from ${sessionFile})`);
    expect(me.stderr).not.toContain(sessionKey);

    const updated = ok(
      await inSession(['tfa', 'update', String(methodId), '-l', 'Work', '-p', 'true']),
    );
    expect(updated.stdout).toBe(`2FA method ${methodId} updated: label "Work", primary yes.\n`);
    const relabelled = rawDocument<{ method: { id: number; label: string } }>(
      await inSession(['tfa', 'update', String(methodId), '-l', 'Phone', '--raw']),
    );
    expect(relabelled.method).toMatchObject({ id: methodId, label: 'Phone', is_primary: true });

    // The session expires: the next command says so, forgets it and goes on with the API key.
    await sql(
      api,
      `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    const expired = await inSession(['tfa', 'status', '--raw', '--explain']);
    expect(rawDocument(expired)).toMatchObject({ tfa_enabled: true });
    expect(expired.stderr).toContain(`(key from ${sessionFile})`);
    expect(expired.stderr).toContain(
      'Notice: your 2FA session has expired; removed it and continuing with the API key from ' +
        `${join(home, 'gpumkt', 'api_key')}. Run "gpumkt tfa login" to start a new session.\n`,
    );
    expect(expired.stderr).toContain(`(key from ${join(home, 'gpumkt', 'api_key')})`);
    expect(expired.stderr).not.toContain(user.apiKey);
    expect(existsSync(sessionFile)).toBe(false);
    // Without a session file the API key file serves directly, without a notice.
    const after = await inSession(['tfa', 'status', '--raw']);
    expect(rawDocument(after)).toMatchObject({ tfa_enabled: true });
    expect(after.stderr).toBe('');
  });

  it('adds an SMS method, resends its code, removes it with a backup code and regenerates the codes', async () => {
    const user = await createTestUser(api);
    const { home, run } = cliFor(user);
    // First method through the CLI with --raw: the backup codes stay in the document.
    const started = ok(await run(['tfa', 'auth-new', '--raw']));
    const authSecret = JSON.parse(started.stdout).secret as string;
    ok(await run(['tfa', 'auth-new', '-s', authSecret, '-c', await readCode(api, user.email)]));
    const setup = JSON.parse(ok(await run(['tfa', 'totp-setup', '--raw'])).stdout);
    expect(setup).toMatchObject({
      secret: expect.any(String),
      provisioning_uri: expect.stringMatching(/^otpauth:/),
    });
    const activated = ok(
      await run(['tfa', 'activate', totpCode(setup.secret), '--secret', setup.secret]),
    );
    expect(activated.stdout).toMatch(/^Backup codes \(shown only this once/m);
    const backupCodes = [...activated.stdout.matchAll(/^\s+\d+\. (\S+)$/gm)].map(
      (match) => match[1],
    );
    expect(backupCodes).toHaveLength(10);

    // SMS: send, resend, activate (the authorization window is still open).
    const phone = testPhone();
    // A first challenge, in --raw: send-sms and resend-sms each give one JSON document.
    const firstPhone = testPhone();
    const sentRaw = rawDocument<{ secret: string }>(
      await run(['tfa', 'send-sms', '-p', firstPhone, '--raw']),
    );
    expect(sentRaw).toMatchObject({ success: true, secret: expect.any(String) });
    await readCode(api, firstPhone);
    const resentRaw = rawDocument(await run(['tfa', 'resend-sms', '-s', sentRaw.secret, '--raw']));
    expect(resentRaw).toMatchObject({ success: true, msg: expect.any(String) });
    await readCode(api, firstPhone);
    await forgetRecentSms(api, user.id);

    // The number that becomes the method, in human output.
    const sent = ok(await run(['tfa', 'send-sms', '-p', phone]));
    const smsSecret = field(sent.stdout, 'Secret');
    expect(sent.stdout).toContain(`gpumkt tfa login -t sms -s ${smsSecret} -c CODE`);
    await readCode(api, phone);
    const resent = ok(await run(['tfa', 'resend-sms', '-s', smsSecret]));
    expect(resent.stdout).toBe('SMS code resent. A 6-digit code has been sent to your phone\n');
    const smsCode = await readCode(api, phone);
    const smsActivated = await run([
      'tfa',
      'activate',
      smsCode,
      '--secret',
      smsSecret,
      '-t',
      'sms',
      '-p',
      phone,
      '-l',
      'Cell',
      '--raw',
    ]);
    // Not the first method: no backup codes, the api's answer as it is.
    const smsDocument = rawDocument(smsActivated);
    expect(smsDocument).toMatchObject({ success: true, msg: expect.stringMatching(/SMS/) });
    expect(smsDocument).not.toHaveProperty('backup_codes');
    await forgetRecentSms(api, user.id);
    const methods = JSON.parse(ok(await run(['tfa', 'status', '--raw'])).stdout).methods as {
      id: number;
      method: string;
    }[];
    const sms = methods.find((method) => method.method === 'sms')!;
    expect(ok(await run(['tfa', 'status'])).stdout).toMatch(/\bphone\b/);

    // Removal needs confirmation; stdin is not a terminal, so --yes is required.
    const unconfirmed = await run(['tfa', 'delete', '-bc', backupCodes[0], '-id', String(sms.id)]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('pass --yes');
    const removed = ok(
      await run(['tfa', 'delete', '-bc', backupCodes[0], '-id', String(sms.id), '--yes']),
    );
    expect(removed.stdout).toBe('2FA method removed\nYou have 1 2FA method(s) remaining.\n');

    const regenerated = ok(await run(['tfa', 'regen-codes', '-bc', backupCodes[1], '--yes']));
    const printed = [...regenerated.stdout.matchAll(/^\s+\d+\. (\S+)$/gm)].map((m) => m[1]);
    expect(printed).toHaveLength(10);
    expect(printed).not.toContain(backupCodes[2]);
    // --raw with --output: the codes go to the file (0600), the document names it.
    const codesFile = join(home, 'new-codes.txt');
    const regeneratedRaw = rawDocument(
      await run(['tfa', 'regen-codes', '-bc', printed[0], '--yes', '--raw', '-o', codesFile]),
    );
    expect(regeneratedRaw).toMatchObject({ backup_codes_file: codesFile });
    expect(regeneratedRaw).not.toHaveProperty('backup_codes');
    expect(statSync(codesFile).mode & 0o777).toBe(0o600);
    const fresh = readFileSync(codesFile, 'utf8').trim().split('\n');
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(printed[1]);

    // A backup code authorizes adding a method directly; old codes no longer work.
    const viaBackup = ok(await run(['tfa', 'auth-new', '-bc', fresh[0]]));
    expect(viaBackup.stdout).toContain('Authorization successful.');
    const stale = await run(['tfa', 'auth-new', '-bc', backupCodes[2], '--raw']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(JSON.parse(stale.stderr)).toMatchObject({
      success: false,
      error: 'invalid_backup_code',
    });

    // Email login: send-email prints the secret that login needs with the code.
    const mail = ok(await run(['tfa', 'send-email']));
    const mailSecret = field(mail.stdout, 'Secret');
    const missing = await run(['tfa', 'login', '-t', 'email', '-c', '123456']);
    expect(missing.code).toBe(2);
    await readCode(api, user.email);
    const mailRaw = rawDocument<{ secret: string }>(await run(['tfa', 'send-email', '--raw']));
    expect(mailRaw.secret).toEqual(expect.any(String));
    expect(mailRaw.secret).not.toBe(mailSecret);
    const login = ok(
      await run([
        'tfa',
        'login',
        '-t',
        'email',
        '-s',
        mailRaw.secret,
        '-c',
        await readCode(api, user.email),
      ]),
    );
    // $GPUMKT_API_KEY is set in this test: it keeps winning over the new session, and the
    // client says so instead of claiming that later commands use the session.
    expect(login.stdout).toBe(
      `2FA login successful. Session key saved to ${join(home, 'gpumkt', 'session_key')}.\n`,
    );
    expect(login.stderr).toBe(
      'Note: $GPUMKT_API_KEY takes precedence over the session key; leave it out for later ' +
        'commands to use the session.\n',
    );

    // Removing the last method with --raw: the api's answer, and 2FA is off.
    const totp = methods.find((method) => method.method === 'totp')!;
    const last = rawDocument(
      await run(['tfa', 'delete', '-bc', fresh[1], '-id', String(totp.id), '--yes', '--raw']),
    );
    expect(last).toMatchObject({ msg: '2FA Successfully Disabled' });
    expect(ok(await run(['tfa', 'status'])).stdout).toContain('No active 2FA methods found.');
  });

  it('draws totp-setup as a QR code when stdout is a terminal', async () => {
    const user = await createTestUser(api);
    const { env } = cliFor(user);
    const result = await runCliInTerminal(['tfa', 'totp-setup'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Scan this QR code with your authenticator app:');
    expect(result.stdout).toMatch(/[▀▄█]{10}/);
    expect(result.stdout).toMatch(/Secret \(manual entry\): [A-Z2-7]+/);
    expect(result.stdout).not.toContain('Provisioning URI');
  });
});
