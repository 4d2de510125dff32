import Redis from 'ioredis';
import { randomInt } from 'node:crypto';
import { authenticator } from 'otplib';
import { OutboxReader } from '@app/identity-tfa';
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
 * Waits (CONDITION_TIMEOUT_MS) while the worker delivers.
 */
export async function readCode(api: TestApi, to: string): Promise<string> {
  const reader = api.app.get(OutboxReader);
  const after = seen.get(to.toLowerCase()) ?? 0;
  const [latest] = await waitFor(
    () => reader.list(to, 1),
    ([message]) => message !== undefined && message.id > after,
    { what: `a new outbox message to ${to}` },
  );
  seen.set(to.toLowerCase(), latest.id);
  const match = /\b(\d{6})\b/.exec(latest.body);
  if (!match) throw new Error(`no code in outbox message ${latest.id}`);
  return match[1];
}

/** True when a message to `to` arrives that was not read yet (bounded wait). */
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

/** Authorizes adding a method by an email code (the path of a user without methods). */
export async function authorizeByEmail(api: TestApi, user: TestUser): Promise<void> {
  const start = await api
    .http()
    .post('/api/v0/tfa/authorize-new-method/')
    .set(user.auth)
    .send({ tfa_method: 'email' });
  if (start.status !== 200) throw new Error(`authorize: ${JSON.stringify(start.body)}`);
  const code = await readCode(api, user.email);
  const confirm = await api
    .http()
    .put('/api/v0/tfa/authorize-new-method/')
    .set(user.auth)
    .send({ secret: start.body.secret, code });
  if (confirm.status !== 200) throw new Error(`authorize PUT: ${JSON.stringify(confirm.body)}`);
}

export interface EnabledTotp {
  methodId: number;
  secret: string;
  backupCodes: string[];
}

/** First-time setup of an authenticator app: email authorization, totp-setup, confirm-new. */
export async function enableTotp(api: TestApi, user: TestUser): Promise<EnabledTotp> {
  await authorizeByEmail(api, user);
  const setup = await api.http().post('/api/v0/tfa/totp-setup/').set(user.auth).send({});
  const confirm = await api
    .http()
    .post('/api/v0/tfa/confirm-new/')
    .set(user.auth)
    .send({ tfa_method: 'totp', code: totpCode(setup.body.secret), secret: setup.body.secret });
  if (confirm.status !== 200) throw new Error(`confirm-new: ${JSON.stringify(confirm.body)}`);
  await forgetTotpUse(api, confirm.body.method.id);
  return {
    methodId: confirm.body.method.id,
    secret: setup.body.secret,
    backupCodes: confirm.body.backup_codes ?? [],
  };
}

/** Adds an SMS method (authorization must already be granted when the user has methods). */
export async function addSms(
  api: TestApi,
  user: TestUser,
  phone: string,
  options: { authorize?: boolean } = { authorize: true },
): Promise<{ methodId: number; backupCodes?: string[] }> {
  if (options.authorize !== false) await authorizeByEmail(api, user);
  const sent = await api
    .http()
    .post('/api/v0/tfa/sms/')
    .set(user.auth)
    .send({ phone_number: phone });
  if (sent.status !== 200) throw new Error(`sms: ${JSON.stringify(sent.body)}`);
  const code = await readCode(api, phone);
  const confirm = await api
    .http()
    .post('/api/v0/tfa/confirm-new/')
    .set(user.auth)
    .send({ tfa_method: 'sms', code, secret: sent.body.secret, phone_number: phone });
  if (confirm.status !== 200) throw new Error(`confirm-new sms: ${JSON.stringify(confirm.body)}`);
  // Set-up stands for an enrolment made a while ago: its SMS no longer blocks new sends.
  await forgetRecentSms(api, user.id);
  await forgetRecentSend(api, phone);
  return { methodId: confirm.body.method.id, backupCodes: confirm.body.backup_codes };
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
