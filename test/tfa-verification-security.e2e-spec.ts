import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { userSmsKey } from '@app/identity-tfa/infrastructure/anti-fraud/redis-sms-send-counters';
import {
  addSms,
  emailChallenge,
  enableTotp,
  failureState,
  forgetSmsBudgets,
  forgetTotpUse,
  readCode,
  redis,
  sql,
  testPhone,
  totpCode,
} from '@test/support/tfa';
import {
  confirmAuthorization,
  confirmNew,
  passwordLogin,
  regenBackupCodes,
  removeMethod,
  sendEmail,
  sendSms,
  startAuthorization,
  tfaLogin,
  tfaStatus,
} from '@test/support/tfa-requests';

/**
 * Verification as an attacker and a hurried user meet it: budgets per user and channel
 * that no new challenge, route or parallel burst gets around; exactly one success per
 * code; replays refused without being counted; malformed requests refused before any
 * code is compared or spent. docs/identity-tfa.md, "Counting failures".
 */
describe('2FA verification: budgets, single use and replays', () => {
  let api: TestApi;

  beforeAll(async () => {
    // These users ask for more email codes than the email budget allows (5 per 10 minutes):
    // what is checked here is how codes are counted once sent (tfa-delivery checks the budget).
    api = await startApi({ EMAIL_LIMIT_PER_USER: '1000', EMAIL_LIMIT_PER_ADDRESS: '1000' });
  });
  afterAll(() => api.close());

  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
  const statusOf = async (user: TestUser) => (await tfaStatus(api, user.auth)).body;

  describe('email codes cannot be brute-forced', () => {
    it('a new challenge resets nothing: the 5th wrong code locks email on every route', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const answers: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const { secret, code } = await emailChallenge(api, user);
        const routes = [
          () => tfaLogin(api, user.auth, { tfa_method: 'email', code: wrong(code), secret }),
          () =>
            removeMethod(api, user.auth, {
              tfa_method: 'email',
              code: wrong(code),
              secret,
              target_id: totp.methodId,
            }),
          () =>
            regenBackupCodes(api, user.auth, { tfa_method: 'email', code: wrong(code), secret }),
        ];
        answers.push((await routes[i % 3]()).status);
      }
      expect(answers).toEqual([400, 400, 400, 400, 429, 429, 429, 429]);
      expect(await failureState(api, user.id, 'email')).toMatchObject({ failCount: 5 });
      // Locked: even the right code of a brand-new challenge is not compared.
      const fresh = await emailChallenge(api, user);
      for (const response of [
        await tfaLogin(api, user.auth, {
          tfa_method: 'email',
          code: fresh.code,
          secret: fresh.secret,
        }),
        await removeMethod(api, user.auth, {
          tfa_method: 'email',
          code: fresh.code,
          secret: fresh.secret,
          target_id: totp.methodId,
        }),
      ]) {
        expect(response.status).toBe(429);
        expect(response.body).toMatchObject({ error: 'tfa_locked', fail_count: 5 });
        expect(typeof response.body.locked_until).toBe('number');
      }
      // The TOTP method survived the attack.
      expect((await statusOf(user)).tfa_enabled).toBe(true);
    });

    it('30 parallel guesses on 30 fresh challenges: exactly 5 compared, the rest locked', async () => {
      // 30 live challenges at once: password logins each open one (a Bearer send would
      // supersede the one before), and a code is mailed on each.
      const password = 'thirty challenges';
      const user = await createTestUser(api, { password });
      await enableTotp(api, user);
      const challenges = [];
      for (let i = 0; i < 30; i += 1) {
        const started = await passwordLogin(api, { email: user.email, password });
        const secret = started.body.tfa_secret as string;
        await sendEmail(api, null, { secret }).expect(200);
        challenges.push({ secret, code: await readCode(api, user.email) });
      }
      const responses = await Promise.all(
        challenges.map(({ secret, code }) =>
          tfaLogin(api, null, { tfa_method: 'email', code: wrong(code), secret }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 400)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(26);
      expect((await failureState(api, user.id, 'email')).failCount).toBe(5);
    });

    it('logged out, with only the password: the same email budget', async () => {
      const password = 'correct horse battery staple';
      const user = await createTestUser(api, { password });
      await enableTotp(api, user);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        const started = await passwordLogin(api, {
          email: user.email,
          password,
        });
        const secret = started.body.tfa_secret;
        await sendEmail(api, null, { secret }).expect(200);
        const code = await readCode(api, user.email);
        statuses.push((await tfaLogin(api, null, { code: wrong(code), secret })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 429, 429, 429]);
    });

    it('the sum over all channels is capped at 10 wrong codes: then SMS is locked too', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const phone = testPhone();
      await addSms(api, user, phone, { authorize: false });
      const good = totpCode(totp.secret);
      for (let i = 0; i < 4; i += 1)
        await tfaLogin(api, user.auth, { tfa_method: 'totp', code: wrong(good) }).expect(400);
      for (let i = 0; i < 4; i += 1) {
        const { secret, code } = await emailChallenge(api, user);
        await tfaLogin(api, user.auth, { tfa_method: 'email', code: wrong(code), secret }).expect(
          400,
        );
      }
      await tfaLogin(api, user.auth, { backup_code: 'AAAA-AAAA-AAAA' }).expect(401);
      const tenth = await tfaLogin(api, user.auth, { backup_code: 'BBBB-BBBB-BBBB' });
      expect(tenth.status).toBe(429);
      expect(tenth.body).toMatchObject({ error: 'tfa_locked', fail_count: 10 });
      const sent = await sendSms(api, user.auth, {});
      expect(sent.status).toBe(200);
      const viaSms = await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: sent.body.secret,
      });
      expect(viaSms.status).toBe(429);
      expect(viaSms.body.error).toBe('tfa_locked');
    });
  });

  describe('N parallel requests with one correct code: exactly one succeeds, every run', () => {
    const PARALLEL = 20;
    const RUNS = 20;
    const together = (make: () => PromiseLike<{ status: number; body: Record<string, unknown> }>) =>
      Promise.all(Array.from({ length: PARALLEL }, make));

    /** One success; every other answer a replay refusal, and nothing counted or locked. */
    async function expectOneWinner(
      user: TestUser,
      channel: string,
      responses: Array<{ status: number; body: Record<string, unknown> }>,
    ): Promise<void> {
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of responses.filter((r) => r.status !== 200)) {
        expect(r.status).not.toBe(429);
        expect(r.body.msg).toMatch(/already used/);
      }
      expect((await failureState(api, user.id, channel)).failCount).toBe(0);
    }

    it(`TOTP: ${RUNS} runs of ${PARALLEL}`, async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      for (let run = 0; run < RUNS; run += 1) {
        await forgetTotpUse(api, totp.methodId);
        const code = totpCode(totp.secret);
        await expectOneWinner(
          user,
          'totp',
          await together(() => tfaLogin(api, user.auth, { tfa_method: 'totp', code })),
        );
      }
    });

    it(`email: ${RUNS} runs of ${PARALLEL}`, async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      for (let run = 0; run < RUNS; run += 1) {
        const { secret, code } = await emailChallenge(api, user);
        await expectOneWinner(
          user,
          'email',
          await together(() => tfaLogin(api, user.auth, { tfa_method: 'email', code, secret })),
        );
      }
    });

    it(`SMS: ${RUNS} runs of ${PARALLEL}`, async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      await addSms(api, user, phone);
      for (let run = 0; run < RUNS; run += 1) {
        // Each run stands for a login a while after the last: the send budgets are not the subject.
        await forgetSmsBudgets(api, user.id, phone);
        const sent = await sendSms(api, user.auth, {});
        expect(sent.status).toBe(200);
        const code = await readCode(api, phone);
        await expectOneWinner(
          user,
          'sms',
          await together(() =>
            tfaLogin(api, user.auth, { tfa_method: 'sms', code, secret: sent.body.secret }),
          ),
        );
      }
    });

    it(`backup codes: ${RUNS} runs of ${PARALLEL}`, async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      let codes = totp.backupCodes;
      for (let run = 0; run < RUNS; run += 1) {
        if (run === 10) {
          await forgetTotpUse(api, totp.methodId);
          const fresh = await regenBackupCodes(api, user.auth, {
            tfa_method: 'totp',
            code: totpCode(totp.secret),
          });
          expect(fresh.status).toBe(200);
          codes = fresh.body.backup_codes;
        }
        const code = codes[run % 10];
        await expectOneWinner(
          user,
          'backup_code',
          await together(() => tfaLogin(api, user.auth, { backup_code: code })),
        );
      }
    });
  });

  describe('replays are refused and never counted', () => {
    it('a used email code, sent again and again, never locks its owner', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const { secret, code } = await emailChallenge(api, user);
      await tfaLogin(api, user.auth, { tfa_method: 'email', code, secret }).expect(200);
      for (let i = 0; i < 8; i += 1) {
        const replay = await tfaLogin(api, user.auth, { tfa_method: 'email', code, secret });
        expect(replay.status).toBe(400);
        expect(replay.body.error).toBe('no_challenge_found');
      }
      expect((await failureState(api, user.id, 'email')).failCount).toBe(0);
      const next = await emailChallenge(api, user);
      await tfaLogin(api, user.auth, { tfa_method: 'email', ...next }).expect(200);
    });

    it('a used backup code is told apart from a wrong one', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[0] }).expect(200);
      for (let i = 0; i < 6; i += 1) {
        const replay = await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[0] });
        expect(replay.status).toBe(401);
        expect(replay.body).toMatchObject({
          error: 'invalid_backup_code',
          msg: 'This backup code was already used.',
        });
      }
      expect((await failureState(api, user.id, 'backup_code')).failCount).toBe(0);
      await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[1] }).expect(200);
    });
  });

  describe('malformed requests are refused before any code is compared or spent', () => {
    it.each(['12345', '1234567', '12a456', ' 123456', '１２３４５６'])(
      'code %j is bad_request on every route, and nothing is counted',
      async (code) => {
        const user = await createTestUser(api);
        const totp = await enableTotp(api, user);
        const { secret } = await emailChallenge(api, user);
        const auth = await startAuthorization(api, user.auth, {
          tfa_method: 'email',
        });
        const responses = [
          await tfaLogin(api, user.auth, { tfa_method: 'totp', code }),
          await tfaLogin(api, user.auth, { tfa_method: 'email', code, secret }),
          await removeMethod(api, user.auth, {
            tfa_method: 'totp',
            code,
            target_id: totp.methodId,
          }),
          await regenBackupCodes(api, user.auth, { tfa_method: 'totp', code }),
          await confirmNew(api, user.auth, {
            tfa_method: 'sms',
            code,
            secret,
            phone_number: testPhone(),
          }),
          await confirmAuthorization(api, user.auth, { code, secret: auth.body.secret }),
          await api
            .http()
            .post('/api/v0/tfa/test-submit/')
            .set(user.auth)
            .send({ tfa_method: 'totp', code, secret }),
        ];
        for (const response of responses) {
          expect(response.status).toBe(400);
          expect(response.body).toMatchObject({ success: false, error: 'bad_request' });
          expect(response.body.msg).toMatch(/code: must be exactly 6 digits/);
        }
        for (const channel of ['totp', 'email'])
          expect((await failureState(api, user.id, channel)).failCount).toBe(0);
      },
    );

    it('a missing code is missing_auth_value on every route that takes one', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const { secret } = await emailChallenge(api, user);
      for (const response of [
        await tfaLogin(api, user.auth, { tfa_method: 'totp' }),
        await removeMethod(api, user.auth, {
          tfa_method: 'email',
          secret,
          target_id: totp.methodId,
        }),
        await regenBackupCodes(api, user.auth, { tfa_method: 'totp' }),
        await confirmNew(api, user.auth, { tfa_method: 'totp', secret: 'ABC' }),
        await confirmAuthorization(api, user.auth, { secret }),
      ]) {
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('missing_auth_value');
      }
    });

    it('DELETE by email code without target_id: refused first, the code stays usable', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const { secret, code } = await emailChallenge(api, user);
      const refused = await removeMethod(api, user.auth, { tfa_method: 'email', code, secret });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('bad_request');
      const done = await removeMethod(api, user.auth, {
        tfa_method: 'email',
        code,
        secret,
        target_id: totp.methodId,
      });
      expect(done.status).toBe(200);
      expect(done.body.msg).toBe('2FA Successfully Disabled');
    });

    it('an action that fails after the code matched spends nothing', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const { secret, code } = await emailChallenge(api, user);
      // The session insert of this user fails, as a database fault would make it.
      const trigger = `fail_session_${user.id}`;
      await sql(
        api,
        `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF NEW.user_id = ${user.id} THEN RAISE EXCEPTION 'injected fault'; END IF;
         RETURN NEW; END $$;
         CREATE TRIGGER ${trigger} BEFORE INSERT ON sessions
           FOR EACH ROW EXECUTE FUNCTION ${trigger}()`,
      );
      try {
        const failed = await tfaLogin(api, user.auth, { tfa_method: 'email', code, secret });
        expect(failed.status).toBe(500);
      } finally {
        await sql(api, `DROP TRIGGER ${trigger} ON sessions; DROP FUNCTION ${trigger}()`);
      }
      // The same code was not spent: it completes the login now.
      await tfaLogin(api, user.auth, { tfa_method: 'email', code, secret }).expect(200);
    });
  });

  it('SMS budgets are charged only by sends that happen', async () => {
    const user = await createTestUser(api);
    const statuses: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await sendSms(api, user.auth, { phone_number: testPhone() });
      statuses.push(response.status === 200 ? 'sent' : response.body.error);
    }
    expect(statuses).toEqual(['sent', ...Array(5).fill('tfa_challenge_exists')]);
    expect(await redis(api).zcard(userSmsKey(user.id))).toBe(1);
  });
});

describe('password login: attempts counted before the password is checked', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: 'on' });
  });
  afterAll(() => api.close());

  it('100 parallel attempts (99 wrong, 1 right) by username and email: at most 10 evaluated', async () => {
    const password = 'the right one';
    const username = `leo${Date.now()}`;
    const user = await createTestUser(api, { password, username });
    // Other files share the loopback address's budget: start it afresh for this burst.
    const store = redis(api);
    const forgetAddresses = async () => {
      const keys = await store.keys('login-failures:addr:*');
      if (keys.length > 0) await store.del(...keys);
    };
    await forgetAddresses();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        passwordLogin(api, {
          ...(i % 2 === 0 ? { username } : { email: user.email }),
          password: i === 50 ? password : `wrong ${i}`,
        }),
      ),
    );
    const evaluated = responses.filter((r) => r.status === 401 || r.status === 200);
    expect(evaluated.length).toBeLessThanOrEqual(10);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(100 - evaluated.length);
    for (const r of responses.filter((r) => r.status === 429))
      expect(r.body.error).toBe('login_throttled');
    await store.del(`login-failures:user:${user.id}`);
    await forgetAddresses();
  });
});
