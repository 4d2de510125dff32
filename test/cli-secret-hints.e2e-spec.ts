import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { encodeToken } from '@app/platform';
import { ScriptedRandomSource } from '@app/platform/testing';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { CliResult, runCli, runCommandLine, tempConfigHome } from '@test/support/cli';
import { enableTotp, readCode } from '@test/support/tfa';

/**
 * The follow-up commands gpumkt prints after a send-code step are pasted verbatim by
 * users. Secrets used to be base64url, and about 1 in 64 began with '-', which
 * command-line parsers such as the public client's take for a flag. The api's random
 * source is scripted here to replay exactly such draws: the secret must come out in
 * letters and digits, and the printed command must work as pasted into a shell.
 */
describe('printed 2FA hints, run literally', () => {
  const random = new ScriptedRandomSource();
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({}, { randomSource: random });
  });
  afterAll(() => api.close());

  /** 128 random bits whose base64url form (the old secret encoding) starts with '-'. */
  function dashLeadingDraw(): Buffer {
    const draw = Buffer.concat([Buffer.from([0xf8 + (randomBytes(1)[0] & 3)]), randomBytes(15)]);
    expect(draw.toString('base64url')).toMatch(/^-/);
    return draw;
  }

  function cliFor(user: TestUser) {
    const env = {
      XDG_CONFIG_HOME: tempConfigHome(),
      GPUMKT_URL: api.url,
      GPUMKT_API_KEY: user.apiKey,
    };
    return {
      env,
      run: (args: string[]) => runCli(args, { env }),
      paste: (line: string) => runCommandLine(line, { env }),
    };
  }

  const ok = (result: CliResult): CliResult => {
    if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
    return result;
  };

  /** The command of the "Next:" line, with CODE replaced as the user would. */
  const hint = (stdout: string, code: string): string => {
    const match = /^Next: (gpumkt .+ -c CODE)$/m.exec(stdout);
    if (!match) throw new Error(`no follow-up command in:\n${stdout}`);
    return match[1].replace(/ CODE$/, ` ${code}`);
  };

  it('auth-new: the printed command finishes the authorization', async () => {
    const user = await createTestUser(api);
    const { run, paste } = cliFor(user);
    const draw = dashLeadingDraw();
    random.nextBytes(draw);

    const started = ok(await run(['tfa', 'auth-new']));
    expect(random.pending).toBe(0);
    const secret = encodeToken(draw);
    expect(started.stdout).toContain(`Secret: ${secret}\n`);
    expect(secret).toMatch(/^[A-Za-z0-9]{22}$/);

    const line = hint(started.stdout, await readCode(api, user.email));
    expect(line).toBe(`gpumkt tfa auth-new -s ${secret} -c ${line.slice(-6)}`);
    const granted = ok(await paste(line));
    expect(granted.stdout).toContain('Authorization successful.');
  });

  it('send-email: the printed login command logs in', async () => {
    const user = await createTestUser(api);
    await enableTotp(api, user);
    const { env, run, paste } = cliFor(user);
    const draw = dashLeadingDraw();
    random.nextBytes(draw);

    const sent = ok(await run(['tfa', 'send-email']));
    expect(random.pending).toBe(0);
    const secret = encodeToken(draw);
    const line = hint(sent.stdout, await readCode(api, user.email));
    expect(line).toBe(`gpumkt tfa login -t email -s ${secret} -c ${line.slice(-6)}`);

    const login = ok(await paste(line));
    expect(login.stdout).toBe(
      `2FA login successful. Session key saved to ${join(env.XDG_CONFIG_HOME, 'gpumkt', 'session_key')}.\n`,
    );
  });
});
