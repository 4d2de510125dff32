import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { SecurityNoticeQueue } from '@app/account-security/testing';
import {
  createTestUser,
  loadFixtures,
  runManage,
  startApi,
  TestApi,
  TestUser,
} from '@test/support/api';
import {
  cookieValue,
  eventKinds,
  freshTotp,
  leaks,
  listEvents,
  noticeRows,
  noticesSettled,
  noticesTo,
  passwordLoginWithDevice,
  rememberedLogin,
  revokeDevice,
  storedEvents,
} from '@test/support/account-security';
import { deliverySettled, smtpEnv } from '@test/support/delivery';
import { OwnRedis } from '@test/support/own-redis';
import { SmtpSink, startSmtpSink } from '@test/support/smtp-sink';
import {
  ageFailures,
  enableTotp,
  forgetTotpUse,
  readCode,
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
  sendSms,
  startAuthorization,
  tfaLogin,
  totpSetup,
  updateMethod,
} from '@test/support/tfa-requests';
import { TEST_DATABASE_URL } from '@test/support/test-env';

/**
 * Security events and their notices (docs/identity-tfa.md "Security events",
 * "Notifications"): every kind recorded with its method and origin and never a code or a
 * secret, GET /tfa/events/ and its pages, a rolled-back change that records nothing, the
 * prune command, and notices sent exactly once, also when their job was lost.
 *
 * A Redis of its own: this file stops it, and its worker must be the one that delivers.
 */
describe('security events', () => {
  let redis: OwnRedis;
  let api: TestApi;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    api = await startApi({
      REDIS_URL: redis.url,
      // The sweeper looks every second for notices unsent for a second.
      TFA_NOTICE_RETRY_SECONDS: '1',
      // A change blocked by a held row lock fails (and rolls back) after a second.
      DATABASE_LOCK_TIMEOUT_MS: '1000',
    });
  });
  afterAll(async () => {
    await api.close();
    await redis.stop();
  });

  const UA = `SecurityEventsE2E/1.0 (${randomUUID()})`;

  async function passwordUser(): Promise<{ user: TestUser; password: string }> {
    const password = `pw-${randomUUID()}`;
    return { user: await createTestUser(api, { password }), password };
  }

  describe('every kind, with its method and origin, never a code or a secret', () => {
    it('records each change of the account, lists it, and mails the notified ones once', async () => {
      const { user, password } = await passwordUser();
      const as = { ...user.auth, 'User-Agent': UA };
      const secrets = new Map<string, string>([
        [user.apiKey, 'api key'],
        [password, 'password'],
      ]);
      const codes = new Map<string, string>();
      const keep = (value: string, kind: string) => secrets.set(value, kind);

      // Authorize by email, then an authenticator app: method_added, tfa_enabled.
      const start = await startAuthorization(api, as, { tfa_method: 'email' });
      keep(start.body.secret, 'tfa_secret');
      const emailCode = await readCode(api, user.email);
      codes.set(emailCode, 'email code');
      await confirmAuthorization(api, as, { secret: start.body.secret, code: emailCode }).expect(
        200,
      );
      const setup = await totpSetup(api, as, {});
      keep(setup.body.secret, 'totp secret');
      const appCode = totpCode(setup.body.secret);
      codes.set(appCode, 'totp code');
      const enabled = await confirmNew(api, as, {
        tfa_method: 'totp',
        code: appCode,
        secret: setup.body.secret,
      });
      expect(enabled.status).toBe(200);
      const backupCodes: string[] = enabled.body.backup_codes;
      for (const code of backupCodes) {
        keep(code, 'backup code');
        keep(code.replace(/-/g, ''), 'backup code');
      }
      const totp = { methodId: enabled.body.method.id, secret: setup.body.secret, backupCodes };
      const appNow = async () => {
        const code = await freshTotp(api, totp);
        codes.set(code, 'totp code');
        return code;
      };

      // An SMS method (the window is still open): method_added; a new label: method_updated.
      const phone = testPhone();
      keep(phone, 'phone number');
      const sms = await sendSms(api, as, { phone_number: phone });
      keep(sms.body.secret, 'tfa_secret');
      const smsCode = await readCode(api, phone);
      codes.set(smsCode, 'sms code');
      const added = await confirmNew(api, as, {
        tfa_method: 'sms',
        code: smsCode,
        secret: sms.body.secret,
        phone_number: phone,
      });
      expect(added.status).toBe(200);
      await updateMethod(api, as, { tfa_method_id: added.body.method.id, label: 'work' }).expect(
        200,
      );

      // A remembered browser (login, device_trusted), then a password login from it.
      const remembered = await rememberedLogin(api, { user, password, totp }, { 'User-Agent': UA });
      expect(remembered.status).toBe(200);
      const deviceToken = cookieValue(remembered, 'gm_device')!;
      keep(deviceToken, 'device token');
      keep(cookieValue(remembered, 'gm_session')!, 'session key');
      const trusted = await passwordLoginWithDevice(api, user.email, password, deviceToken, {
        'User-Agent': UA,
      });
      expect(trusted.body.tfa_required).toBe(false);
      keep(trusted.body.session_key, 'session key');

      // A backup code login (login, backup_code_used), and its session's logout.
      const backupLogin = await tfaLogin(api, as, { backup_code: backupCodes[0] });
      expect(backupLogin.status).toBe(200);
      keep(backupLogin.body.session_key, 'session key');
      await api
        .http()
        .post('/api/v0/users/logout/')
        .set({ Authorization: `Bearer ${backupLogin.body.session_key}`, 'User-Agent': UA })
        .expect(200);

      // Five wrong backup codes lock the channel: method_locked.
      for (let i = 0; i < 5; i += 1)
        await tfaLogin(api, as, { backup_code: `AAAA-AAAA-AAA${'23456'[i]}` });
      await ageFailures(api, user.id);

      // New backup codes end the other sessions and forget the devices.
      const regen = await regenBackupCodes(api, as, { tfa_method: 'totp', code: await appNow() });
      expect(regen.status).toBe(200);
      for (const code of regen.body.backup_codes) keep(code, 'backup code');

      // A device trusted again, then revoked by hand.
      const again = await rememberedLogin(api, { user, password, totp }, { 'User-Agent': UA });
      keep(cookieValue(again, 'gm_device')!, 'device token');
      const devices = await api.http().get('/api/v0/tfa/devices/').set(as);
      await revokeDevice(api, as, devices.body.devices[0].id).expect(200);

      // The SMS method removed, then the app: 2FA off.
      await removeMethod(api, as, {
        tfa_method: 'totp',
        code: await appNow(),
        target_id: added.body.method.id,
      }).expect(200);
      await removeMethod(api, as, { tfa_method: 'totp', code: await appNow() }).expect(200);

      // The operator: an admin reset, then revoke-sessions (each after a password session).
      await passwordLogin(api, { email: user.email, password }).expect(200);
      const reset = await runManage(['user:reset-2fa', String(user.id), '--reason', 'e2e check']);
      expect(reset.code).toBe(0);
      await passwordLogin(api, { email: user.email, password }).expect(200);
      expect((await runManage(['user:revoke-sessions', String(user.id)])).code).toBe(0);

      const stored = await storedEvents(api, user.id);
      expect(new Set(stored.map((event) => event.kind))).toEqual(
        new Set([
          'tfa_enabled',
          'tfa_disabled',
          'method_added',
          'method_removed',
          'method_updated',
          'backup_codes_regenerated',
          'backup_code_used',
          'method_locked',
          'login',
          'session_revoked',
          'admin_reset',
          'device_trusted',
          'device_revoked',
        ]),
      );
      expect(await eventKinds(api, user.id)).toEqual(
        expect.arrayContaining([
          'method_added:totp',
          'tfa_enabled:totp',
          'method_added:sms',
          'method_updated:sms',
          'login:totp',
          'device_trusted',
          'login',
          'login:backup_code',
          'backup_code_used:backup_code',
          'method_locked:backup_code',
          'backup_codes_regenerated:backup_code',
          'method_removed:sms',
          'method_removed:totp',
          'tfa_disabled:totp',
          'admin_reset',
        ]),
      );
      const causes = stored
        .filter((event) => event.kind === 'session_revoked')
        .map((event) => event.details.cause);
      expect(new Set(causes)).toEqual(new Set(['logout', 'tfa_change', 'operator']));
      for (const event of stored) {
        if (event.kind === 'admin_reset' || event.details.cause === 'operator')
          expect([event.client_address, event.user_agent]).toEqual([null, 'manage']);
        else {
          expect(event.user_agent).toBe(UA);
          expect(event.client_address).toMatch(/127\.0\.0\.1$/);
        }
      }
      expect(stored.find((event) => event.kind === 'admin_reset')!.details).toMatchObject({
        reason: 'e2e check',
        methods_removed: 0,
      });

      // The route answers the same history, newest first.
      const listed = await listEvents(api, as, '?limit=500');
      expect(listed.status).toBe(200);
      expect(listed.body.next_token).toBeNull();
      expect(listed.body.events.map((event: { id: number }) => event.id)).toEqual(
        stored.map((event) => Number(event.id)).reverse(),
      );
      const [newest] = listed.body.events;
      expect(Object.keys(newest).sort()).toEqual(
        ['client_address', 'created_at', 'details', 'id', 'kind', 'method', 'user_agent'].sort(),
      );

      // Notices: one per notified event, none for the others, each with when and where.
      await noticesSettled(api, user.id);
      const owed = await sql<Array<{ id: string; kind: string }>>(
        api,
        `SELECT e.id, e.kind FROM tfa_security_events e
           JOIN tfa_security_notices n ON n.event_id = e.id WHERE e.user_id = $1`,
        [user.id],
      );
      expect(new Set(owed.map((event) => event.kind))).toEqual(
        new Set([
          'method_added',
          'method_removed',
          'tfa_disabled',
          'backup_codes_regenerated',
          'backup_code_used',
          'method_locked',
          'admin_reset',
          'device_trusted',
        ]),
      );
      for (const event of stored)
        expect(await noticeRows(api, event.id)).toBe(
          owed.some((notice) => notice.id === event.id) ? 1 : 0,
        );
      const notices = await noticesTo(api, user.email);
      expect(notices).toHaveLength(owed.length);
      const removal = notices.find((notice) =>
        notice.subject?.endsWith('a two-factor method was removed'),
      )!;
      expect(removal.body).toMatch(/^When: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/m);
      expect(removal.body).toMatch(
        new RegExp(
          `^From: address [\\w.:]*127\\.0\\.0\\.1, browser or client "${UA.replace(/[()./]/g, '\\$&')}"$`,
          'm',
        ),
      );
      expect(removal.body).toContain('If it was not, change your password now');

      // Nowhere a secret or a code: not in the table, the route's answer, or the mails.
      const everything = [
        JSON.stringify(
          await sql(api, `SELECT * FROM tfa_security_events WHERE user_id = $1`, [user.id]),
        ),
        JSON.stringify(listed.body),
        JSON.stringify(notices),
      ].join('\n');
      expect(leaks(everything, secrets)).toEqual([]);
      expect(leaks(everything, codes, true)).toEqual([]);
      expect(notices.some((notice) => /\b\d{6}\b/.test(notice.body))).toBe(false);
    });
  });

  describe('GET /tfa/events/', () => {
    /** A user with `count` stored events (inserted directly: the table takes inserts). */
    async function userWithEvents(count: number): Promise<TestUser> {
      const user = await createTestUser(api);
      await sql(
        api,
        `INSERT INTO tfa_security_events (user_id, kind, method, details, client_address, user_agent)
         SELECT $1, 'login', 'totp', jsonb_build_object('n', g), '203.0.113.9', 'seed'
           FROM generate_series(1, $2) g`,
        [user.id, count],
      );
      return user;
    }

    it('walks every page newest first, with no event twice and none left out', async () => {
      const user = await userWithEvents(520);
      const seen: number[] = [];
      const ids: number[] = [];
      let query = '?limit=200';
      let pages = 0;
      for (;;) {
        const page = await listEvents(api, user.auth, query);
        expect(page.status).toBe(200);
        pages += 1;
        for (const event of page.body.events) {
          seen.push(event.details.n);
          ids.push(event.id);
        }
        if (page.body.next_token === null) break;
        query = `?limit=200&after_token=${encodeURIComponent(page.body.next_token)}`;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(Array.from({ length: 520 }, (_, i) => 520 - i));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('limit defaults to 50 and is served at most 500; both slash variants', async () => {
      const user = await userWithEvents(520);
      const plain = await listEvents(api, user.auth);
      expect(plain.body.events).toHaveLength(50);
      expect(plain.body.next_token).toEqual(expect.any(String));
      const clamped = await listEvents(api, user.auth, '?limit=100000');
      expect(clamped.status).toBe(200);
      expect(clamped.body.events).toHaveLength(500);
      const noSlash = await api.http().get('/api/v0/tfa/events?limit=1').set(user.auth);
      expect(noSlash.status).toBe(200);
      expect(noSlash.body.events).toHaveLength(1);
    });

    it('refuses a limit that is not an integer of at least 1, or given twice', async () => {
      const user = await userWithEvents(1);
      for (const limit of ['0', '-1', 'x', '1.5', '']) {
        const response = await listEvents(api, user.auth, `?limit=${limit}`);
        expect({ status: response.status, body: response.body }).toEqual({
          status: 400,
          body: {
            success: false,
            error: 'bad_request',
            msg: 'limit must be an integer of at least 1',
          },
        });
      }
      const twice = await listEvents(api, user.auth, '?limit=1&limit=2');
      expect(twice.status).toBe(400);
      expect(twice.body.msg).toBe('limit must be given once, as a string');
    });

    it("refuses an altered token, and another user's, with invalid_token", async () => {
      const owner = await userWithEvents(3);
      const other = await userWithEvents(3);
      const page = await listEvents(api, owner.auth, '?limit=1');
      const token: string = page.body.next_token;
      const altered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
      const invalid = {
        status: 400,
        body: { success: false, error: 'invalid_token', msg: 'Invalid pagination token' },
      };
      for (const [auth, value] of [
        [other.auth, token],
        [owner.auth, altered],
        [owner.auth, 'garbage'],
      ] as const) {
        const response = await listEvents(
          api,
          auth,
          `?limit=1&after_token=${encodeURIComponent(value)}`,
        );
        expect({ status: response.status, body: response.body }).toEqual(invalid);
      }
    });

    it('answers only the personal context: a team key is refused, a key is required', async () => {
      const user = await userWithEvents(1);
      const key = `team-key-${randomUUID()}`;
      await loadFixtures(api, {
        teams: [
          {
            id: 4472,
            name: 'events-team',
            members: [user.id],
            api_keys: [{ user_id: user.id, key }],
          },
        ],
      });
      const team = await listEvents(api, { Authorization: `Bearer ${key}` });
      expect(team.status).toBe(403);
      expect(team.body).toMatchObject({ success: false, error: 'team_user_forbidden' });
      const anonymous = await api.http().get('/api/v0/tfa/events/');
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toMatchObject({ success: false, error: 'auth_error' });
    });
  });

  it('a change that rolls back after its events were written leaves none of them', async () => {
    const { user, password } = await passwordUser();
    const totp = await enableTotp(api, user);
    await rememberedLogin(api, { user, password, totp });
    const before = await storedEvents(api, user.id);
    const code = await freshTotp(api, totp);
    // Another transaction holds the device row: the removal's last step waits on it, past
    // the lock timeout, after method_removed and tfa_disabled were written.
    const locker = new Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query(`SELECT id FROM tfa_trusted_devices WHERE user_id = $1 FOR UPDATE`, [
        user.id,
      ]);
      const removal = await removeMethod(api, user.auth, { tfa_method: 'totp', code });
      expect(removal.status).toBe(503);
      expect(removal.body).toMatchObject({ success: false, error: 'service_unavailable' });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect(await storedEvents(api, user.id)).toEqual(before);
    // Nothing else of the change stayed either: the same code still removes the method.
    const retried = await removeMethod(api, user.auth, { tfa_method: 'totp', code });
    expect(retried.status).toBe(200);
    expect(await eventKinds(api, user.id)).toEqual(
      expect.arrayContaining(['method_removed:totp', 'tfa_disabled:totp', 'device_revoked']),
    );
  });

  it('manage tfa:prune-events deletes, in batches, the events older than the retention', async () => {
    const user = await createTestUser(api);
    await sql(
      api,
      `INSERT INTO tfa_security_events (user_id, kind, details, created_at)
       SELECT $1, 'login', '{}', now() - interval '500 days' - g * interval '1 second'
         FROM generate_series(1, 1200) g`,
      [user.id],
    );
    await sql(api, `INSERT INTO tfa_security_events (user_id, kind) VALUES ($1, 'login')`, [
      user.id,
    ]);
    const started = Date.now();
    const result = await runManage(['tfa:prune-events']);
    expect(result.code).toBe(0);
    const { pruned, before } = result.json as { pruned: number; before: string };
    expect(pruned).toBe(1200);
    const expected = started - 400 * 24 * 3600 * 1000;
    expect(Math.abs(Date.parse(before) - expected)).toBeLessThan(60_000);
    expect(await storedEvents(api, user.id)).toHaveLength(1);

    const refused = await runManage(['tfa:prune-events', '--older-than-days', '0']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr)).toEqual({
      error: 'bad_request',
      msg: '--older-than-days must be a positive integer',
    });
  });

  describe('notices', () => {
    it('a notice whose job was never queued (a crash after the commit) is sent by the sweeper, once', async () => {
      const user = await createTestUser(api);
      const [event] = await sql<Array<{ id: string }>>(
        api,
        `INSERT INTO tfa_security_events (user_id, kind, method, client_address, user_agent)
         VALUES ($1, 'backup_codes_regenerated', 'backup_code', '203.0.113.9', 'crashed/1.0')
         RETURNING id`,
        [user.id],
      );
      await sql(api, `INSERT INTO tfa_security_notices (event_id) VALUES ($1)`, [event.id]);
      await noticesSettled(api, user.id);
      expect(await noticeRows(api, event.id)).toBe(1);
      const [notice] = await noticesTo(api, user.email);
      expect(notice.subject).toBe('GPU Marketplace security notice: new backup codes');
      expect(notice.body).toContain('From: address 203.0.113.9, browser or client "crashed/1.0"');
    });

    it('a notice that could not be queued (Redis down) stays pending, and is sent once Redis is back', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      await noticesSettled(api, user.id);
      const code = await freshTotp(api, totp);
      await redis.stop();
      try {
        const regen = await regenBackupCodes(api, user.auth, { tfa_method: 'totp', code });
        expect(regen.status).toBe(200);
        const pending = await sql<Array<{ kind: string; sent_at: Date | null }>>(
          api,
          `SELECT e.kind, n.sent_at FROM tfa_security_notices n
             JOIN tfa_security_events e ON e.id = n.event_id
            WHERE e.user_id = $1 AND e.kind = 'backup_codes_regenerated'`,
          [user.id],
        );
        expect(pending).toEqual([{ kind: 'backup_codes_regenerated', sent_at: null }]);
      } finally {
        await redis.start();
      }
      const [event] = (await storedEvents(api, user.id)).filter(
        (e) => e.kind === 'backup_codes_regenerated',
      );
      await noticesSettled(api, user.id);
      expect(await noticeRows(api, event.id)).toBe(1);
    });

    it('a second job of a sent notice sends nothing, even when its sent mark was lost', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      await regenBackupCodes(api, user.auth, {
        tfa_method: 'totp',
        code: await freshTotp(api, totp),
      }).expect(200);
      await noticesSettled(api, user.id);
      const [event] = (await storedEvents(api, user.id)).filter(
        (e) => e.kind === 'backup_codes_regenerated',
      );
      const queue = api.app.get(SecurityNoticeQueue);
      await queue.enqueue({ eventId: Number(event.id) }, { awaitFirstAttempt: false });
      await deliverySettled(api, `notice-${event.id}`);
      // The worker sent it but died before marking it: the sweeper queues it again.
      await sql(api, `UPDATE tfa_security_notices SET sent_at = NULL WHERE event_id = $1`, [
        event.id,
      ]);
      await noticesSettled(api, user.id);
      await deliverySettled(api, `notice-${event.id}`);
      expect(await noticeRows(api, event.id)).toBe(1);
    });
  });
});

describe('security notices by SMTP', () => {
  let sink: SmtpSink;
  let redis: OwnRedis;
  let api: TestApi;

  beforeAll(async () => {
    [sink, redis] = await Promise.all([startSmtpSink(), OwnRedis.start()]);
    api = await startApi({ REDIS_URL: redis.url, ...smtpEnv(sink) });
  });
  afterAll(async () => {
    await api.close();
    await Promise.all([sink.close(), redis.stop()]);
  });

  it('one multipart mail per notified event, with its Message-ID, when and where, and no code', async () => {
    const user = await createTestUser(api);
    const mailbox = (mail: { to: string[] }) => mail.to.includes(user.email.toLowerCase());
    // An authenticator app (the email code goes by SMTP too): method_added is mailed.
    const start = await startAuthorization(api, user.auth, { tfa_method: 'email' });
    const [codeMail] = await sink.waitForMail(mailbox, 1);
    const code = /\b(\d{6})\b/.exec(codeMail.text)![1];
    await confirmAuthorization(api, user.auth, { secret: start.body.secret, code }).expect(200);
    const setup = await totpSetup(api, user.auth, {});
    await confirmNew(api, user.auth, {
      tfa_method: 'totp',
      code: totpCode(setup.body.secret),
      secret: setup.body.secret,
    }).expect(200);
    await noticesSettled(api, user.id);
    const [event] = (await storedEvents(api, user.id)).filter((e) => e.kind === 'method_added');
    const notices = sink.messages.filter(
      (mail) => mailbox(mail) && mail.subject.includes('security notice'),
    );
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice.subject).toBe('GPU Marketplace security notice: a two-factor method was added');
    expect(notice.messageId).toBe(`<notice-${event.id}@gpumarket.test>`);
    expect(notice.raw).toMatch(/^Content-Type: multipart\/alternative;/im);
    expect(notice.text).toContain(
      'A two-factor method was added to your account: an authenticator app.',
    );
    expect(notice.text).toMatch(/When: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(notice.text).toMatch(/From: address [\w.:]*127\.0\.0\.1/);
    expect(notice.html).toContain('When: ');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    expect(notice.text).not.toContain(setup.body.secret);
    // The code's mail and the notice, nothing more.
    expect(sink.messages.filter(mailbox)).toHaveLength(2);
  });

  it('shows a hostile, non-ASCII user agent decoded and inside its quotes', async () => {
    const user = await createTestUser(api);
    const mailbox = (mail: { to: string[]; subject: string }) =>
      mail.to.includes(user.email.toLowerCase()) && mail.subject.includes('new backup codes');
    const start = await startAuthorization(api, user.auth, { tfa_method: 'email' });
    const [codeMail] = await sink.waitForMail(
      (mail: { to: string[] }) => mail.to.includes(user.email.toLowerCase()),
      1,
    );
    const code = /\b(\d{6})\b/.exec(codeMail.text)![1];
    await confirmAuthorization(api, user.auth, { secret: start.body.secret, code }).expect(200);
    const setup = await totpSetup(api, user.auth, {});
    const confirmed = await confirmNew(api, user.auth, {
      tfa_method: 'totp',
      code: totpCode(setup.body.secret),
      secret: setup.body.secret,
    }).expect(200);
    await forgetTotpUse(api, confirmed.body.method.id);
    // A browser sends its User-Agent as UTF-8 bytes (node:http writes these as they are).
    const agent = 'Évian "Support": call +1-555-0100 now. \\ end';
    const regen = await fetchWithBytes(`${api.url}/api/v0/tfa/regen-backup-codes/`, {
      method: 'PUT',
      headers: { ...user.auth, 'User-Agent': utf8Header(agent) },
      body: { tfa_method: 'totp', code: totpCode(setup.body.secret) },
    });
    expect(regen).toBe(200);
    const [notice] = await sink.waitForMail(mailbox, 1);
    expect(notice.text).toContain(
      'browser or client "Évian \\"Support\\": call +1-555-0100 now. \\\\ end"',
    );
    expect(notice.html).toContain('Évian \\&quot;Support\\&quot;');
    // The event keeps the user agent as the browser wrote it.
    const [event] = (await storedEvents(api, user.id)).filter(
      (e) => e.kind === 'backup_codes_regenerated',
    );
    expect(event.user_agent).toBe(agent);
  });
});

/** What a client puts on the wire for a non-ASCII header: its UTF-8 bytes. */
const utf8Header = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

/** A JSON request whose header bytes go out exactly as given; answers the status. */
function fetchWithBytes(
  url: string,
  options: { method: string; headers: Record<string, string>; body: unknown },
): Promise<number> {
  // A Buffer body: with a string one, node:http would write the headers in its encoding.
  const payload = Buffer.from(JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: options.method,
      headers: {
        ...options.headers,
        'Content-Type': 'application/json',
        'Content-Length': payload.length,
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    request.end(payload);
  });
}
