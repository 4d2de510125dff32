import type { Response, Test } from 'supertest';
import { OutboxMessage, OutboxReader } from '@app/messaging';
import { TestApi, TestUser } from './api';
import { enableTotp, EnabledTotp, forgetTotpUse, sql, totpCode } from './tfa';
import { waitFor } from './wait';

/**
 * Account-security helpers: the security events of a user as stored, the notices mailed
 * to them, and the requests of the events and trusted-device routes (through `api.http()`,
 * so their answers are validated and recorded).
 */

type Auth = Record<string, string>;

export const listEvents = (api: TestApi, auth: Auth, query = ''): Test =>
  api.http().get(`/api/v0/tfa/events/${query}`).set(auth);

export const listDevices = (api: TestApi, auth: Auth): Test =>
  api.http().get('/api/v0/tfa/devices/').set(auth);

export const revokeDevice = (api: TestApi, auth: Auth, id: number | string): Test =>
  api.http().delete(`/api/v0/tfa/devices/${id}/`).set(auth);

/** A stored security event, as the table holds it. */
export interface StoredEvent {
  id: string;
  kind: string;
  method: string | null;
  details: Record<string, unknown>;
  client_address: string | null;
  user_agent: string | null;
  created_at: Date;
}

/** The user's events as stored, oldest first. */
export function storedEvents(api: TestApi, userId: number): Promise<StoredEvent[]> {
  return sql<StoredEvent[]>(
    api,
    `SELECT id, kind, method, details, client_address, user_agent, created_at
       FROM tfa_security_events WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
}

/** The kinds of the user's stored events, oldest first (`kind` or `kind:method`). */
export async function eventKinds(api: TestApi, userId: number): Promise<string[]> {
  return (await storedEvents(api, userId)).map((event) =>
    event.method ? `${event.kind}:${event.method}` : event.kind,
  );
}

/** Security notices the outbox holds for `email`, oldest first. */
export async function noticesTo(api: TestApi, email: string): Promise<OutboxMessage[]> {
  return (await api.app.get(OutboxReader).list(email, 1000, 'notice')).reverse();
}

/** Outbox rows of one event's notice (exactly one once it was delivered). */
export async function noticeRows(api: TestApi, eventId: string | number): Promise<number> {
  const [row] = await sql<Array<{ n: number }>>(
    api,
    `SELECT count(*)::int AS n FROM tfa_outbox_messages WHERE delivery_id = $1`,
    [`notice-${eventId}`],
  );
  return row.n;
}

/** Waits until every notice the user is owed has been sent; answers the stored state. */
export async function noticesSettled(api: TestApi, userId: number): Promise<void> {
  await waitFor(
    () =>
      sql<Array<{ n: number }>>(
        api,
        `SELECT count(*)::int AS n FROM tfa_security_notices n
           JOIN tfa_security_events e ON e.id = n.event_id
          WHERE e.user_id = $1 AND n.sent_at IS NULL AND n.abandoned_at IS NULL`,
        [userId],
      ),
    ([row]) => row.n === 0,
    { what: `every notice of user ${userId} sent` },
  );
}

/** The value of a cookie set by the response, with its attributes (the whole header). */
export function setCookie(response: Response, name: string): string | undefined {
  const headers = response.headers['set-cookie'] as unknown as string[] | undefined;
  return headers?.find((header) => header.startsWith(`${name}=`));
}

/** The value alone of a cookie the response set. */
export function cookieValue(response: Response, name: string): string | undefined {
  return setCookie(response, name)
    ?.split(';')[0]
    .slice(name.length + 1);
}

/** A user with a password and an authenticator app. */
export interface PasswordTotpUser {
  user: TestUser;
  password: string;
  totp: EnabledTotp;
}

/** The app's current code, usable again (as if the next 30 seconds had come). */
export async function freshTotp(api: TestApi, totp: EnabledTotp): Promise<string> {
  await forgetTotpUse(api, totp.methodId);
  return totpCode(totp.secret);
}

export async function passwordTotpUser(
  api: TestApi,
  create: (password: string) => Promise<TestUser>,
): Promise<PasswordTotpUser> {
  const password = `pw-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const user = await create(password);
  const totp = await enableTotp(api, user);
  return { user, password, totp };
}

/**
 * The logged-out login of a browser: password, then the app's code with the login secret,
 * asking to remember the device. Answers the 2FA login's response.
 */
export async function rememberedLogin(
  api: TestApi,
  { user, password, totp }: PasswordTotpUser,
  headers: Record<string, string> = {},
): Promise<Response> {
  const challenge = await api
    .http()
    .post('/api/v0/users/login/')
    .set(headers)
    .send({ email: user.email, password });
  if (challenge.body.tfa_required !== true) throw new Error('expected the 2FA challenge');
  return api
    .http()
    .post('/api/v0/tfa/')
    .set(headers)
    .send({
      tfa_method: 'totp',
      code: await freshTotp(api, totp),
      secret: challenge.body.tfa_secret,
      remember_device: true,
    });
}

/** POST users/login/ from a browser holding `deviceCookie` (the gm_device value). */
export function passwordLoginWithDevice(
  api: TestApi,
  email: string,
  password: string,
  deviceCookie: string,
  headers: Record<string, string> = {},
): Test {
  return api
    .http()
    .post('/api/v0/users/login/')
    .set({ ...headers, Cookie: `gm_device=${deviceCookie}` })
    .send({ email, password });
}

/**
 * What of `needles` (value -> what it is) appears in `haystack`: codes (`wholeWord`) only
 * as a number of their own, so a 6-digit code is not "found" inside a longer id.
 */
export function leaks(haystack: string, needles: Map<string, string>, wholeWord = false): string[] {
  const lower = haystack.toLowerCase();
  const found: string[] = [];
  for (const [needle, kind] of needles) {
    const hit = wholeWord
      ? new RegExp(`(^|[^0-9])${needle}([^0-9]|$)`).test(haystack)
      : lower.includes(needle.toLowerCase());
    if (hit) found.push(`${kind} found in plaintext`);
  }
  return found;
}
