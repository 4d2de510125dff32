import { request as httpRequest } from 'node:http';
import { createTestUser, runManage, startApi, TestApi } from '@test/support/api';
import {
  cookieValue,
  freshTotp,
  passwordTotpUser,
  PasswordTotpUser,
  rememberedLogin,
  storedEvents,
} from '@test/support/account-security';
import { regenBackupCodes, removeMethod } from '@test/support/tfa-requests';

/**
 * The password login and trusted devices under attack (docs/decisions.md "Password login",
 * docs/identity-tfa.md "Trusted devices"): strangers guessing from many addresses cannot
 * lock out an owner who holds a trusted device, and a device login racing a 2FA change
 * that revokes devices never leaves a session behind.
 */

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** POST users/login/ from one loopback address (127.0.0.0/8 all reach the api). */
function loginFrom(
  api: TestApi,
  localAddress: string,
  body: Record<string, unknown>,
  deviceCookie?: string,
): Promise<Answer> {
  const url = new URL('/api/v0/users/login/', api.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      localAddress,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(payload),
        ...(deviceCookie ? { Cookie: `gm_device=${deviceCookie}` } : {}),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    request.end(payload);
  });
}

describe('password login: a stranger cannot lock out the owner of a trusted device', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: 'on' });
  });
  afterAll(() => api.close());

  it('1,000 wrong passwords from 127.0.0.2-9: at most 10 evaluated; the owner with a device cookie logs in at once', async () => {
    const owner = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const remembered = await rememberedLogin(api, owner);
    expect(remembered.status).toBe(200);
    const device = cookieValue(remembered, 'gm_device')!;

    const attackers = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);
    const answers: Answer[] = [];
    let next = 0;
    const attacker = async () => {
      while (next < 1_000) {
        const i = next++;
        answers.push(
          await loginFrom(api, attackers[i % attackers.length], {
            email: owner.user.email,
            password: `guess ${i}`,
          }),
        );
      }
    };
    const flood = Promise.all(Array.from({ length: 16 }, attacker));
    // The owner, in the middle of the flood, from 127.0.0.1 with the device cookie.
    while (answers.length < 300) await new Promise((resolve) => setImmediate(resolve));
    const ownerStarted = Date.now();
    const during = await loginFrom(
      api,
      '127.0.0.1',
      { email: owner.user.email, password: owner.password },
      device,
    );
    const ownerMs = Date.now() - ownerStarted;
    await flood;
    console.info(
      `1,000 wrong passwords from 8 addresses: ${answers.filter((a) => a.status === 401).length} evaluated, ` +
        `${answers.filter((a) => a.status === 429).length} x 429; the owner with its device cookie: ` +
        `${during.status} in ${ownerMs} ms (during the flood)`,
    );

    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ success: true, tfa_required: false });
    const evaluated = answers.filter((answer) => answer.status === 401);
    expect(evaluated.length).toBeLessThanOrEqual(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(
      1_000 - evaluated.length,
    );
    for (const answer of answers.filter((a) => a.status === 429))
      expect(answer.body).toMatchObject({ success: false, error: 'login_throttled' });

    // After the flood: the owner's device still works, and its success forgave nothing of
    // the strangers' failures (a guess from a new address is still refused unevaluated).
    const after = await loginFrom(
      api,
      '127.0.0.1',
      { email: owner.user.email, password: owner.password },
      device,
    );
    expect(after.status).toBe(200);
    expect(
      (await loginFrom(api, '127.0.0.10', { email: owner.user.email, password: 'one more' }))
        .status,
    ).toBe(429);
    // Without the device, the user's shared budget is spent: the documented cost.
    expect(
      (
        await loginFrom(api, '127.0.0.1', {
          email: owner.user.email,
          password: owner.password,
        })
      ).status,
    ).toBe(429);
    // Another user is not concerned.
    const other = await createTestUser(api, { password: 'other password' });
    expect(
      (await loginFrom(api, '127.0.0.1', { email: other.email, password: 'other password' }))
        .status,
    ).toBe(200);
  });

  it('a stolen device cookie alone buys 10 guesses per window, no more', async () => {
    const owner = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const device = cookieValue(await rememberedLogin(api, owner), 'gm_device')!;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        loginFrom(api, '127.0.0.11', { email: owner.user.email, password: `guess ${i}` }, device),
      ),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(30);
  });
});

describe('trusted-device logins racing a 2FA change: no session survives it', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  /**
   * Six loops of password + gm_device logins while `change` runs. Once it has returned,
   * every session a device login got (before or during the change) must be dead, and no
   * device login may be recorded after the devices were revoked. A login of a user whose
   * 2FA is off (after DELETE of the last method or the admin reset) needs no device: its
   * session is legitimate, and the loop stops there.
   */
  async function race(account: PasswordTotpUser & { device: string }, change: () => Promise<void>) {
    let running = true;
    const deviceSessions: string[] = [];
    const loop = async () => {
      while (running) {
        const answer = await loginFrom(
          api,
          '127.0.0.1',
          { email: account.user.email, password: account.password },
          account.device,
        );
        if (answer.body.tfa_required === true) return; // the device was revoked
        // A loaded machine may answer 503 (the user's lock or a pooled connection not had in
        // time): the documented "retry shortly", no session issued, so the loop retries.
        if (answer.status === 503) continue;
        if (answer.status !== 200) throw new Error(`login: ${JSON.stringify(answer.body)}`);
        if ((answer.body.user as { tfa_status: string }).tfa_status === 'disabled') return;
        deviceSessions.push(answer.body.session_key as string);
      }
    };
    let ended = 0;
    const loops = Array.from({ length: 6 }, () => loop().finally(() => (ended += 1)));
    // Let the loops get going, so the change lands among device logins.
    while (deviceSessions.length < 3 && ended < loops.length)
      await new Promise((resolve) => setImmediate(resolve));
    if (ended === loops.length) await Promise.all(loops); // a loop failed: say why
    await change();
    running = false;
    await Promise.all(loops);
    let survivors = 0;
    for (const session of deviceSessions) {
      const current = await api
        .http()
        .get('/api/v0/users/current/')
        .set({ Authorization: `Bearer ${session}` });
      if (current.status === 200) survivors += 1;
    }
    const events = await storedEvents(api, account.user.id);
    const lastRevocation = Math.max(
      ...events.filter((event) => event.kind === 'device_revoked').map((event) => Number(event.id)),
    );
    const lateLogins = events.filter(
      (event) =>
        event.kind === 'login' &&
        event.details.trusted_device === true &&
        Number(event.id) > lastRevocation,
    ).length;
    return { survivors, lateLogins, deviceSessions: deviceSessions.length };
  }

  async function rememberedAccount(): Promise<PasswordTotpUser & { device: string }> {
    const account = await passwordTotpUser(api, (password) => createTestUser(api, { password }));
    const remembered = await rememberedLogin(api, account);
    expect(remembered.status).toBe(200);
    return { ...account, device: cookieValue(remembered, 'gm_device')! };
  }

  it('PUT regen-backup-codes: 50 runs, 0 survivors', async () => {
    const account = await rememberedAccount();
    let codes = account.totp.backupCodes;
    const outcomes = [];
    for (let run = 0; run < 50; run++) {
      // Each run starts from a freshly trusted device (the last run's change revoked it).
      const device =
        run === 0 ? account.device : cookieValue(await rememberedLogin(api, account), 'gm_device')!;
      outcomes.push(
        await race({ ...account, device }, async () => {
          const regen = await regenBackupCodes(api, account.user.auth, { backup_code: codes[0] });
          expect(regen.status).toBe(200);
          codes = regen.body.backup_codes as string[];
        }),
      );
    }
    console.info(
      `regen-backup-codes races: ${outcomes.length} runs, ` +
        `${outcomes.reduce((sum, o) => sum + o.deviceSessions, 0)} device sessions, ` +
        `${outcomes.reduce((sum, o) => sum + o.survivors, 0)} survivors, ` +
        `${outcomes.reduce((sum, o) => sum + o.lateLogins, 0)} device logins after a revocation`,
    );
    expect(outcomes.filter((o) => o.survivors > 0 || o.lateLogins > 0)).toEqual([]);
    expect(outcomes.every((o) => o.deviceSessions >= 3)).toBe(true);
  }, 600_000);

  it('DELETE /tfa/ and the admin reset: no survivor either', async () => {
    const outcomes = [];
    for (let run = 0; run < 5; run++) {
      const account = await rememberedAccount();
      outcomes.push(
        await race(account, async () => {
          const removed = await removeMethod(api, account.user.auth, {
            tfa_method: 'totp',
            code: await freshTotp(api, account.totp),
          });
          expect(removed.status).toBe(200);
        }),
      );
    }
    for (let run = 0; run < 5; run++) {
      const account = await rememberedAccount();
      outcomes.push(
        await race(account, async () => {
          const reset = await runManage([
            'user:reset-2fa',
            String(account.user.id),
            '--reason',
            'lost every factor (race test)',
          ]);
          expect(reset.code).toBe(0);
        }),
      );
    }
    expect(outcomes.filter((o) => o.survivors > 0 || o.lateLogins > 0)).toEqual([]);
  }, 600_000);
});
