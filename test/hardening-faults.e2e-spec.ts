import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestUser, spawnApi, startApi, TestApi, TestUser } from '@test/support/api';
import { OwnRedis } from '@test/support/own-redis';
import { authorizeByEmail, enableTotp, totpCode } from '@test/support/tfa';
import { TEST_DATABASE_URL } from '@test/support/test-env';
import { CONDITION_TIMEOUT_MS } from '@test/support/wait';
import { tfaStatus, totpSetup } from '@test/support/tfa-requests';

/** Polls until `accept` holds (up to CONDITION_TIMEOUT_MS); returns the last value either way. */
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + CONDITION_TIMEOUT_MS;
  let last = await probe();
  while (!accept(last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe();
  }
  return last;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawResponse {
  status: number;
  type: string;
  body: Record<string, unknown>;
  headers: Headers;
}

/**
 * One request to any api (in-process or a spawned process): status, content type, headers
 * and the body, kept even when it is not JSON so that a broken failure shows as it is.
 */
async function raw(
  api: { url: string },
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  auth: Record<string, string>,
  body?: unknown,
): Promise<RawResponse> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { unparsable: text };
  }
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: parsed,
    headers: response.headers,
  };
}

/** The body of every request that lost its database connection. */
const DATABASE_LOST = {
  success: false,
  error: 'service_unavailable',
  msg: 'A backing service is unavailable; retry shortly.',
};

/**
 * The body of a request that found the database saturated: while connections are being
 * killed their replacements queue for the pool and its locks, and on a loaded machine a
 * wait may pass its bound (DATABASE_POOL_WAIT_MS, lock_timeout). Also a 503, and as correct
 * an answer during a storm as a lost connection.
 */
const DATABASE_BUSY = {
  success: false,
  error: 'service_unavailable',
  msg: 'The database is busy; retry shortly.',
};

/**
 * Either 503 a storm of killed connections may answer. Compared field by field: a body
 * parsed by the HTTP client may come from another realm than these constants, so strict
 * deep equality (which compares prototypes) would never hold.
 */
const isStorm503 = (body: unknown) =>
  [DATABASE_LOST, DATABASE_BUSY].some(
    (expected) =>
      typeof body === 'object' &&
      body !== null &&
      Object.keys(body).length === Object.keys(expected).length &&
      Object.entries(expected).every(
        ([key, value]) => (body as Record<string, unknown>)[key] === value,
      ),
  );

describe('faults: dependencies going away and coming back', () => {
  describe('Redis stopped mid-run', () => {
    let redis: OwnRedis;
    let api: TestApi;

    beforeAll(async () => {
      redis = await OwnRedis.start();
      api = await startApi({ REDIS_URL: redis.url, RATE_LIMITS: 'on' });
    });

    afterAll(async () => {
      await api.close();
      await redis.stop();
    });

    it('turns readiness to 503 while Redis is down and recovers without a restart', async () => {
      expect((await api.http().get('/health/ready')).status).toBe(200);
      await redis.stop();
      const down = await eventually(
        () => api.http().get('/health/ready'),
        (response) => response.status === 503,
      );
      expect(down.status).toBe(503);
      expect(down.body.error.redis.status).toBe('down');
      await redis.start();
      const up = await eventually(
        () => api.http().get('/health/ready'),
        (response) => response.status === 200,
      );
      expect(up.status).toBe(200);
    });

    it('fails closed while Redis is down (add-method gate, rate limits, readiness) and recovers without a restart', async () => {
      const chargesPath = `/api/v0/charges/?select_filters=${encodeURIComponent(
        JSON.stringify({ day: { gte: 1761955200, lte: 1762300800 } }),
      )}`;
      const user = await createTestUser(api);
      // The add-method window is granted while Redis is up: only the gate check needs it later.
      await authorizeByEmail(api, user);
      const setup = await totpSetup(api, user.auth, {});
      expect(setup.status).toBe(200);
      const granted = await tfaStatus(api, user.auth);
      expect(granted.body.new_method_authorized).toBe(true);
      expect((await raw(api, 'GET', chargesPath, user.auth)).status).toBe(200);

      await redis.stop();
      const confirm = () =>
        raw(api, 'POST', '/api/v0/tfa/confirm-new/', user.auth, {
          tfa_method: 'totp',
          code: totpCode(setup.body.secret),
          secret: setup.body.secret,
        });
      // confirm-new records security events: its security-writes budget, in Redis, is the
      // first thing it cannot check, and it fails closed there.
      const confirmDown = await confirm();
      expect(confirmDown.status).toBe(503);
      expect(confirmDown.type).toMatch(/application\/json/);
      expect(confirmDown.body).toEqual({
        success: false,
        error: 'service_unavailable',
        msg: 'Rate limiter unavailable; retry shortly.',
      });
      // GET /tfa/status/ reads the add-method gate (new_method_authorized): it fails closed.
      const gateDown = await raw(api, 'GET', '/api/v0/tfa/status/', user.auth);
      expect(gateDown.status).toBe(503);
      expect(gateDown.body).toEqual({
        success: false,
        error: 'service_unavailable',
        msg: 'The authorization store is unavailable; retry shortly.',
      });
      // Back-to-back requests, well within the 1 s threshold: neither may be served unthrottled.
      for (let i = 0; i < 2; i += 1) {
        const response = await raw(api, 'GET', chargesPath, user.auth);
        expect(response.status).toBe(503);
        expect(response.type).toMatch(/application\/json/);
        expect(response.body).toEqual({
          success: false,
          error: 'service_unavailable',
          msg: 'Rate limiter unavailable; retry shortly.',
        });
      }
      expect((await api.http().get('/health/ready')).status).toBe(503);

      await redis.start();
      const ready = await eventually(
        () => api.http().get('/health/ready'),
        (response) => response.status === 200,
      );
      expect(ready.status).toBe(200);
      const recovering: RawResponse[] = [];
      const served = await eventually(
        async () => {
          const response = await raw(api, 'GET', chargesPath, user.auth);
          recovering.push(response);
          return response;
        },
        (response) => response.status === 200,
      );
      expect(served.status).toBe(200);
      expect(served.body).toMatchObject({ success: true });
      // Before that, only refusals: 503 while the limiter cannot reach Redis, or 429 when a
      // request from the outage, replayed by the client on reconnect, already took the slot.
      for (const response of recovering.slice(0, -1)) {
        if (response.status === 429)
          expect(response.body).toEqual({
            detail: 'API requests too frequent endpoint threshold=1.0',
          });
        else expect(response.body).toMatchObject({ success: false, error: 'service_unavailable' });
      }
      // The limiter works again: a second request within the threshold is throttled.
      const throttled = await raw(api, 'GET', chargesPath, user.auth);
      expect(throttled.status).toBe(429);
      expect(throttled.body).toEqual({
        detail: 'API requests too frequent endpoint threshold=1.0',
      });

      // The restarted Redis is empty, so the grant is gone: the gate answers from the store
      // again (403) instead of failing closed, and a fresh authorization opens it.
      const gateUp = await eventually(confirm, (response) => response.status !== 503);
      expect(gateUp.status).toBe(403);
      expect(gateUp.body).toMatchObject({ success: false, error: 'authorization_required' });
      await authorizeByEmail(api, user);
      const added = await confirm();
      expect(added.status).toBe(200);
      expect(added.body).toMatchObject({ success: true });
      expect(added.body.backup_codes).toHaveLength(10);
      const status = await tfaStatus(api, user.auth);
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ tfa_enabled: true, backup_codes_remaining: 10 });
    });
  });

  describe('PostgreSQL connections killed', () => {
    const applicationName = `fault-test-${process.pid}-${Date.now()}`;
    let api: TestApi;
    let user: TestUser;
    let admin: Client;

    beforeAll(async () => {
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('application_name', applicationName);
      api = await startApi({ DATABASE_URL: url.toString() });
      user = await createTestUser(api);
      // The test's own connection: it is never a target of the kills.
      admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
    });

    afterAll(async () => {
      await admin.end();
      await api.close();
    });

    /** Terminates every backend of this test's api (and only those). */
    const kill = async () =>
      Number(
        (
          await admin.query(
            `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = $1`,
            [applicationName],
          )
        ).rows[0].n,
      );

    const count = async (text: string, params: unknown[]) =>
      Number((await admin.query(text, params)).rows[0].n);
    const sessionsOf = (userId: number) =>
      count(`SELECT count(*) AS n FROM sessions WHERE user_id = $1`, [userId]);
    const usedCodesOf = (userId: number) =>
      count(
        `SELECT count(*) AS n FROM tfa_backup_codes
          WHERE user_id = $1 AND used_at IS NOT NULL AND deleted_at IS NULL`,
        [userId],
      );

    /** Backup codes spent and sessions issued: the invariant says they move together. */
    const ledgerOf = async (userId: number) => ({
      used: await usedCodesOf(userId),
      sessions: await sessionsOf(userId),
    });

    const backupLogin = (who: TestUser, code: string) =>
      raw(api, 'POST', '/api/v0/tfa/', who.auth, { backup_code: code });

    /** The session key works as a Bearer credential of `who`. */
    async function expectWorkingSession(who: TestUser, sessionKey: unknown) {
      expect(typeof sessionKey).toBe('string');
      const me = await raw(api, 'GET', '/api/v0/users/current/', {
        Authorization: `Bearer ${String(sessionKey)}`,
      });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(who.id);
    }

    /** After the faults stop, a retry gets through (a few may still meet a dying connection). */
    const retried = (request: () => Promise<RawResponse>) =>
      eventually(request, (response) => response.status !== 503);

    it('fails the affected requests cleanly (503 JSON, no stack) and serves later ones', async () => {
      await api.http().get('/api/v0/users/current').set(user.auth).expect(200);
      const responses: Array<{ status: number; type: string; body: unknown }> = [];
      const killed: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        // fetch starts at once, so the kills land while these requests are being served.
        const inFlight = Array.from({ length: 30 }, () =>
          fetch(`${api.url}/api/v0/users/current`, { headers: user.auth }).then(
            async (response) => ({
              status: response.status,
              type: response.headers.get('content-type') ?? '',
              body: await response.json(),
            }),
          ),
        );
        killed.push(...(await Promise.all([kill(), kill()])));
        responses.push(...(await Promise.all(inFlight)));
      }
      expect(killed.some((n) => n > 0)).toBe(true);
      for (const response of responses) {
        expect(response.type).toMatch(/application\/json/);
        expect([200, 503]).toContain(response.status);
        if (response.status === 503)
          expect({ body: response.body, storm503: isStorm503(response.body) }).toEqual({
            body: response.body,
            storm503: true,
          });
      }
      const after = await eventually(
        () => api.http().get('/api/v0/users/current').set(user.auth),
        (response) => response.status === 200,
      );
      expect(after.status).toBe(200);
      expect(after.body.id).toBe(user.id);
    });

    it('backup-code logins while connections are killed: a code is spent exactly when its session is issued', async () => {
      const owners = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const owner = await createTestUser(api);
          return { owner, codes: (await enableTotp(api, owner)).backupCodes };
        }),
      );
      for (const { owner, codes } of owners) {
        expect(codes).toHaveLength(10);
        expect(await sessionsOf(owner.id)).toBe(0);
      }

      let storming = true;
      const storm = (async () => {
        let killed = 0;
        for (let i = 0; i < 2_000 && storming; i += 1) {
          killed += await kill();
          await sleep(3);
        }
        return killed;
      })();
      // Spread over the storm so kills land at every step of a login, not only the first.
      const first = await Promise.all(
        owners.flatMap(({ owner, codes }, o) =>
          codes.map(async (code, c) => {
            await sleep((c * owners.length + o) * 4);
            return { owner, code, response: await backupLogin(owner, code) };
          }),
        ),
      );
      storming = false;
      expect(await storm).toBeGreaterThan(0);

      const failed = first.filter(({ response }) => response.status !== 200);
      // The faults reached the logins: otherwise this test would prove nothing.
      expect(failed.length).toBeGreaterThan(0);
      for (const { response } of failed) {
        expect(response.type).toMatch(/application\/json/);
        expect({
          status: response.status,
          body: response.body,
          storm503: isStorm503(response.body),
        }).toEqual({ status: 503, body: response.body, storm503: true });
      }
      // The invariant, per user: each spent code has its session and nothing else does.
      for (const { owner } of owners) {
        const succeeded = first.filter((a) => a.owner === owner && a.response.status === 200);
        expect(await ledgerOf(owner.id)).toEqual({
          used: succeeded.length,
          sessions: succeeded.length,
        });
      }
      for (const { owner, response } of first.filter((a) => a.response.status === 200))
        await expectWorkingSession(owner, response.body.session_key);
      // A failed login left its code unused: the same code logs in now.
      for (const { owner, code } of failed) {
        const retry = await retried(() => backupLogin(owner, code));
        expect(retry.status).toBe(200);
        await expectWorkingSession(owner, retry.body.session_key);
      }
      // A successful login spent its code: it cannot be used a second time.
      for (const { owner, code } of first.filter((a) => a.response.status === 200)) {
        const replay = await retried(() => backupLogin(owner, code));
        expect(replay.status).toBe(401);
        expect(replay.body).toMatchObject({ error: 'invalid_backup_code' });
      }
      for (const { owner } of owners)
        expect(await ledgerOf(owner.id)).toEqual({ used: 10, sessions: 10 });
    });

    it('the built api, as its own process, survives connections killed at any moment', async () => {
      // In-process, an unhandled driver error only fails the test file; here it would end
      // the process that serves the requests, which is what happens in production.
      const spawnedName = `${applicationName}-spawned`;
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('application_name', spawnedName);
      const spawned = await spawnApi({ DATABASE_URL: url.toString(), RUN_WORKER: 'false' });
      try {
        const killSpawned = async () =>
          Number(
            (
              await admin.query(
                `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
                  WHERE datname = current_database() AND application_name = $1`,
                [spawnedName],
              )
            ).rows[0].n,
          );
        let storming = true;
        const storm = (async () => {
          let killed = 0;
          for (let i = 0; i < 1_000 && storming; i += 1) {
            killed += await killSpawned();
            await sleep(3);
          }
          return killed;
        })();
        const answers: Array<number | string> = [];
        for (let round = 0; round < 15 && spawned.child.exitCode === null; round += 1) {
          const batch = await Promise.all(
            Array.from({ length: 20 }, () =>
              raw(spawned, 'GET', '/api/v0/users/current/', user.auth).then(
                (response) =>
                  response.status === 200 || (response.status === 503 && isStorm503(response.body))
                    ? response.status
                    : `${response.status} ${JSON.stringify(response.body)}`,
                () => 'no answer',
              ),
            ),
          );
          answers.push(...batch);
        }
        storming = false;
        expect(await storm).toBeGreaterThan(0);
        // What the process printed when it died (its logs are JSON lines; the crash is not).
        const crash =
          spawned.child.exitCode === null
            ? null
            : spawned.output
                .filter((chunk) => !chunk.startsWith('{'))
                .join('')
                .slice(0, 600);
        expect(crash).toBeNull();
        expect(answers.filter((answer) => answer !== 200 && answer !== 503)).toEqual([]);
        expect(answers).toContain(503);
        const after = await eventually(
          () => raw(spawned, 'GET', '/api/v0/users/current/', user.auth),
          (response) => response.status === 200,
        );
        expect(after.body.id).toBe(user.id);
      } finally {
        await spawned.stop();
      }
    });

    describe('a connection killed exactly when the session row (or a new backup code set) is written', () => {
      // A trigger makes PostgreSQL terminate the backend that inserts a listed user's next
      // session or backup code: the fault lands after the code was checked and (if done
      // separately) spent.
      // A sequence decides "once", because it is the one thing a rollback does not undo.
      beforeAll(async () => {
        await admin.query(`
          CREATE TABLE IF NOT EXISTS fault_session_kill (user_id integer PRIMARY KEY, seq regclass NOT NULL);
          CREATE OR REPLACE FUNCTION fault_session_kill() RETURNS trigger LANGUAGE plpgsql AS $$
          DECLARE s regclass;
          BEGIN
            SELECT seq INTO s FROM fault_session_kill WHERE user_id = NEW.user_id;
            IF s IS NOT NULL AND nextval(s) = 1 THEN
              PERFORM pg_terminate_backend(pg_backend_pid());
              PERFORM pg_sleep(10);
            END IF;
            RETURN NEW;
          END $$;
          DROP TRIGGER IF EXISTS fault_session_kill ON sessions;
          CREATE TRIGGER fault_session_kill BEFORE INSERT ON sessions
            FOR EACH ROW EXECUTE FUNCTION fault_session_kill();
          DROP TRIGGER IF EXISTS fault_session_kill ON tfa_backup_codes;
          CREATE TRIGGER fault_session_kill BEFORE INSERT ON tfa_backup_codes
            FOR EACH ROW EXECUTE FUNCTION fault_session_kill();
        `);
      });

      afterAll(async () => {
        const rows = (await admin.query(`SELECT seq::text AS seq FROM fault_session_kill`)).rows;
        await admin.query(`DROP TRIGGER IF EXISTS fault_session_kill ON sessions`);
        await admin.query(`DROP TRIGGER IF EXISTS fault_session_kill ON tfa_backup_codes`);
        await admin.query(`DROP FUNCTION IF EXISTS fault_session_kill()`);
        await admin.query(`DROP TABLE IF EXISTS fault_session_kill`);
        for (const { seq } of rows as Array<{ seq: string }>)
          await admin.query(`DROP SEQUENCE IF EXISTS ${seq}`);
      });

      async function killNextSessionOf(userId: number) {
        const seq = `fault_session_kill_${userId}`;
        await admin.query(`CREATE SEQUENCE ${seq}`);
        await admin.query(`INSERT INTO fault_session_kill (user_id, seq) VALUES ($1, $2)`, [
          userId,
          seq,
        ]);
      }

      it('a backup code: the failed login leaves the code unused, and it logs in on retry', async () => {
        const owner = await createTestUser(api);
        const { backupCodes } = await enableTotp(api, owner);
        await killNextSessionOf(owner.id);
        const failed = await backupLogin(owner, backupCodes[0]);
        expect(failed.status).toBe(503);
        expect(failed.body).toEqual(DATABASE_LOST);
        expect(await ledgerOf(owner.id)).toEqual({ used: 0, sessions: 0 });
        const retry = await retried(() => backupLogin(owner, backupCodes[0]));
        expect(retry.status).toBe(200);
        expect(retry.body.backup_codes_remaining).toBe(9);
        await expectWorkingSession(owner, retry.body.session_key);
        expect(await ledgerOf(owner.id)).toEqual({ used: 1, sessions: 1 });
      });

      it('regen-backup-codes with a backup code: the failed regeneration keeps the old set and the code, and the retry replaces it', async () => {
        const owner = await createTestUser(api);
        const { backupCodes } = await enableTotp(api, owner);
        const activeCodes = () =>
          count(
            `SELECT count(*) AS n FROM tfa_backup_codes
              WHERE user_id = $1 AND used_at IS NULL AND deleted_at IS NULL`,
            [owner.id],
          );
        await killNextSessionOf(owner.id);
        const regen = () =>
          raw(api, 'PUT', '/api/v0/tfa/regen-backup-codes/', owner.auth, {
            backup_code: backupCodes[0],
          });
        const failed = await regen();
        expect(failed.status).toBe(503);
        expect(failed.body).toEqual(DATABASE_LOST);
        expect(await usedCodesOf(owner.id)).toBe(0);
        expect(await activeCodes()).toBe(10);
        const retry = await retried(regen);
        expect(retry.status).toBe(200);
        expect(retry.body.backup_codes).toHaveLength(10);
        expect(retry.body.backup_codes).not.toContain(backupCodes[0]);
        expect(await activeCodes()).toBe(10);
      });

      it('a TOTP code: the failed login does not spend the code, and it logs in on retry', async () => {
        const owner = await createTestUser(api);
        const totp = await enableTotp(api, owner);
        await killNextSessionOf(owner.id);
        const code = totpCode(totp.secret);
        const login = () =>
          raw(api, 'POST', '/api/v0/tfa/', owner.auth, {
            tfa_method: 'totp',
            code,
            tfa_method_id: totp.methodId,
          });
        const failed = await login();
        expect(failed.status).toBe(503);
        expect(failed.body).toEqual(DATABASE_LOST);
        expect(await sessionsOf(owner.id)).toBe(0);
        // RFC 6238 replay protection would refuse the code had its step been recorded.
        const retry = await retried(login);
        expect(retry.status).toBe(200);
        await expectWorkingSession(owner, retry.body.session_key);
        expect(await sessionsOf(owner.id)).toBe(1);
        const replay = await login();
        expect(replay.status).toBe(400);
        expect(replay.body).toMatchObject({ error: '2fa_verification_failed' });
      });

      it('logged out (login secret + backup code): both stay usable, and the retry logs in', async () => {
        const password = `pw-${randomUUID()}`;
        const owner = await createTestUser(api, { password });
        const { backupCodes } = await enableTotp(api, owner);
        const credentials = { email: owner.email, password };
        const passwordLogin = await raw(api, 'POST', '/api/v0/users/login/', {}, credentials);
        expect(passwordLogin.body.tfa_required).toBe(true);
        await killNextSessionOf(owner.id);
        const secondStep = { secret: passwordLogin.body.tfa_secret, backup_code: backupCodes[0] };
        const complete = () => raw(api, 'POST', '/api/v0/tfa/', {}, secondStep);
        const failed = await complete();
        expect(failed.status).toBe(503);
        expect(failed.body).toEqual(DATABASE_LOST);
        expect(await ledgerOf(owner.id)).toEqual({ used: 0, sessions: 0 });
        // The secret is used up only by a login that commits, so the same secret still works.
        const retry = await retried(complete);
        expect(retry.status).toBe(200);
        await expectWorkingSession(owner, retry.headers.get('x-session-key'));
        expect(await ledgerOf(owner.id)).toEqual({ used: 1, sessions: 1 });
      });
    });
  });
});
