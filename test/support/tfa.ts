import Redis from 'ioredis';
import { randomInt } from 'node:crypto';
import { authenticator } from 'otplib';
import { OutboxReader } from '@app/messaging';
import {
  numberSmsKeys,
  userSmsKey,
} from '@app/identity-tfa/infrastructure/anti-fraud/redis-sms-send-counters';
import { recentSmsKey } from '@app/identity-tfa/infrastructure/redis/redis-challenge-store';
import { SecretKeeper, TransactionalEntityManager } from '@app/platform';
import { TestApi, TestUser } from './api';
import { forgetRecentSend } from './delivery';
import { waitFor } from './wait';

/** 2FA test helpers: codes from the outbox, TOTP codes, and moving stored time. */

const seen = new Map<string, number>();

/**
 * The code of the newest outbox message to `to` that this test file has not read yet.
 * Waits (CONDITION_TIMEOUT_MS) while the worker delivers. Only code messages count: the
 * security notices a 2FA change mails to the same address carry no code.
 */
export async function readCode(api: TestApi, to: string): Promise<string> {
  const reader = api.app.get(OutboxReader);
  const after = seen.get(to.toLowerCase()) ?? 0;
  const [latest] = await waitFor(
    () => reader.list(to, 1, 'code'),
    ([message]) => message !== undefined && message.id > after,
    { what: `a new outbox message to ${to}` },
  );
  seen.set(to.toLowerCase(), latest.id);
  const match = /\b(\d{6})\b/.exec(latest.body);
  if (!match) throw new Error(`no code in outbox message ${latest.id}`);
  return match[1];
}

/** How many messages to `to` the outbox holds now (at most 1,000); it does not wait. */
export async function outboxCount(api: TestApi, to: string): Promise<number> {
  return (await api.app.get(OutboxReader).list(to, 1000)).length;
}

export function totpCode(secret: string, offsetSteps = 0): string {
  const epoch = Date.now() + offsetSteps * 30_000;
  return authenticator.clone({ epoch, step: 30, digits: 6, window: 0 }).generate(secret);
}

export function sql<T = Record<string, unknown>>(
  api: TestApi,
  text: string,
  params: unknown[] = [],
) {
  return api.app.get(TransactionalEntityManager).manager.query(text, params) as Promise<T>;
}

/**
 * Lets the current TOTP code be used again, as if 30+ seconds had passed since the last
 * accepted one (RFC 6238 replay protection otherwise refuses it).
 */
export async function forgetTotpUse(api: TestApi, methodId: number): Promise<void> {
  await sql(api, `UPDATE tfa_methods SET last_totp_step = NULL WHERE id = $1`, [methodId]);
}

export function redis(api: TestApi): Redis {
  return api.app.get(Redis);
}

export interface ChannelFailureState {
  failCount: number;
  lockedUntil: Date | null;
}

/** What the failure ledger holds for one channel of a user (totp, sms, email, backup_code, user). */
export async function failureState(
  api: TestApi,
  userId: number,
  channel: string,
): Promise<ChannelFailureState> {
  const [row] = await sql<Array<{ n: number; locked_until: Date | null }>>(
    api,
    `SELECT cardinality(failures) AS n, locked_until FROM tfa_verification_failures
      WHERE user_id = $1 AND channel = $2`,
    [userId, channel],
  );
  return { failCount: row?.n ?? 0, lockedUntil: row?.locked_until ?? null };
}

/**
 * Moves the user's recorded failures and locks `ms` into the past, as if that much time
 * had passed (15 minutes end every lock and every counted failure).
 */
export async function ageFailures(api: TestApi, userId: number, ms = 15 * 60_000): Promise<void> {
  await sql(
    api,
    `UPDATE tfa_verification_failures
        SET failures = ARRAY(SELECT t - make_interval(secs => $2 / 1000.0) FROM unnest(failures) t),
            locked_until = locked_until - make_interval(secs => $2 / 1000.0)
      WHERE user_id = $1`,
    [userId, ms],
  );
}

/**
 * Forgets every SMS budget of a user and a number (user, number, minimum interval), as if
 * the anti-fraud windows had passed.
 */
export async function forgetSmsBudgets(api: TestApi, userId: number, phone: string) {
  const number = api.app.get(SecretKeeper).fingerprint('sms-destination', phone);
  // One key per command: in a Redis Cluster these keys live in different slots.
  for (const key of [
    recentSmsKey(userId),
    userSmsKey(userId),
    ...numberSmsKeys(number).slice(0, 2),
  ])
    await redis(api).del(key);
}

/** Forgets the "SMS sent moments ago" marker, as if the resend window had passed. */
export async function forgetRecentSms(api: TestApi, userId: number): Promise<void> {
  await redis(api).del(recentSmsKey(userId));
}

/**
 * The data of a set-up request made through the typed client; a refusal fails the set-up
 * with the api's answer.
 */
function answered<T>(
  what: string,
  result: { data?: T; error?: unknown; response: Response },
): NonNullable<T> {
  if (result.response.status !== 200 || result.data === undefined || result.data === null) {
    throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data as NonNullable<T>;
}

/** Authorizes adding a method by an email code (the path of a user without methods). */
export async function authorizeByEmail(api: TestApi, user: TestUser): Promise<void> {
  const start = answered(
    'authorize',
    await api.client.POST('/api/v0/tfa/authorize-new-method/', {
      headers: user.auth,
      body: { tfa_method: 'email' },
    }),
  );
  if (!('secret' in start)) throw new Error(`authorize: no code was sent`);
  const code = await readCode(api, user.email);
  answered(
    'authorize PUT',
    await api.client.PUT('/api/v0/tfa/authorize-new-method/', {
      headers: user.auth,
      body: { secret: start.secret, code },
    }),
  );
}

export interface EnabledTotp {
  methodId: number;
  secret: string;
  backupCodes: string[];
}

/** First-time setup of an authenticator app: email authorization, totp-setup, confirm-new. */
export async function enableTotp(api: TestApi, user: TestUser): Promise<EnabledTotp> {
  await authorizeByEmail(api, user);
  const { secret } = answered(
    'totp-setup',
    await api.client.POST('/api/v0/tfa/totp-setup/', { headers: user.auth }),
  );
  const confirm = answered(
    'confirm-new',
    await api.client.POST('/api/v0/tfa/confirm-new/', {
      headers: user.auth,
      body: { tfa_method: 'totp', code: totpCode(secret), secret },
    }),
  );
  await forgetTotpUse(api, confirm.method.id);
  return { methodId: confirm.method.id, secret, backupCodes: confirm.backup_codes ?? [] };
}

/** Adds an SMS method (authorization must already be granted when the user has methods). */
export async function addSms(
  api: TestApi,
  user: TestUser,
  phone: string,
  options: { authorize?: boolean } = { authorize: true },
): Promise<{ methodId: number; backupCodes?: string[] }> {
  if (options.authorize !== false) await authorizeByEmail(api, user);
  const sent = answered(
    'sms',
    await api.client.POST('/api/v0/tfa/sms/', {
      headers: user.auth,
      body: { phone_number: phone },
    }),
  );
  const code = await readCode(api, phone);
  const confirm = answered(
    'confirm-new sms',
    await api.client.POST('/api/v0/tfa/confirm-new/', {
      headers: user.auth,
      body: { tfa_method: 'sms', code, secret: sent.secret, phone_number: phone },
    }),
  );
  // Set-up stands for an enrolment made a while ago: its SMS no longer blocks new sends.
  await forgetRecentSms(api, user.id);
  await forgetRecentSend(api, phone);
  return { methodId: confirm.method.id, backupCodes: confirm.backup_codes };
}

/** An email code sent with the user's key, and its secret: what a code-verified step needs. */
export async function emailChallenge(
  api: TestApi,
  user: TestUser,
): Promise<{ secret: string; code: string }> {
  const { secret } = answered(
    'email',
    await api.client.POST('/api/v0/tfa/email/', { headers: user.auth, body: {} }),
  );
  return { secret, code: await readCode(api, user.email) };
}

/** A 2FA session opened with one of the user's backup codes (the command-line flow). */
export async function backupCodeSession(
  api: TestApi,
  user: TestUser,
  backupCode: string,
): Promise<string> {
  const login = answered(
    '2FA login',
    await api.client.POST('/api/v0/tfa/', {
      headers: user.auth,
      body: { backup_code: backupCode },
    }),
  );
  if (!login.session_key) throw new Error('2FA login: no session key');
  return login.session_key;
}

/**
 * A fresh E.164 test number: drawn from 8e9 possible ones, numbers practically never repeat
 * across runs, so the outbox never holds an older message for them.
 */
export function testPhone(): string {
  // A possible North American number (area code 200-999, then 7 digits): 8e9 of them, so
  // numbers drawn by parallel test files do not share the per-number SMS counters.
  return `+1${randomInt(200, 1000)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}
