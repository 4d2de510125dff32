import type { Response, Test } from 'supertest';
import { TestApi } from './api';
import { totpCode } from './tfa';

/**
 * The 2FA requests that e2e tests send again and again, one helper per route. Each sends
 * exactly what the test would through `api.http()` (so its answer is validated against the
 * OpenAPI document and recorded) and hands back supertest's request, for the test's own
 * assertions (`.expect(200)`, `response.body`). Bodies are not typed: tests also send the
 * malformed ones. `auth` is the Authorization header; null sends none (logged out).
 */

type Auth = Record<string, string> | null;
type Body = Record<string, unknown>;

function post(api: TestApi, path: string, auth: Auth, body: Body): Test {
  const request = api.http().post(path);
  if (auth) request.set(auth);
  return request.send(body);
}

function put(api: TestApi, path: string, auth: Auth, body: Body): Test {
  const request = api.http().put(path);
  if (auth) request.set(auth);
  return request.send(body);
}

export const tfaStatus = (api: TestApi, auth: Record<string, string>): Test =>
  api.http().get('/api/v0/tfa/status/').set(auth);

/** POST /tfa/: completes a login with a code or a backup code. */
export const tfaLogin = (api: TestApi, auth: Auth, body: Body): Test =>
  post(api, '/api/v0/tfa/', auth, body);

export const sendSms = (api: TestApi, auth: Auth, body: Body): Test =>
  post(api, '/api/v0/tfa/sms/', auth, body);

export const resendSms = (api: TestApi, auth: Auth, body: Body): Test =>
  post(api, '/api/v0/tfa/sms/resend/', auth, body);

export const sendEmail = (api: TestApi, auth: Auth, body: Body = {}): Test =>
  post(api, '/api/v0/tfa/email/', auth, body);

export const totpSetup = (api: TestApi, auth: Auth, body: Body = {}): Test =>
  post(api, '/api/v0/tfa/totp-setup/', auth, body);

export const confirmNew = (api: TestApi, auth: Auth, body: Body): Test =>
  post(api, '/api/v0/tfa/confirm-new/', auth, body);

/** POST authorize-new-method: the first step, which sends a code (or takes a backup code). */
export const startAuthorization = (api: TestApi, auth: Auth, body: Body): Test =>
  post(api, '/api/v0/tfa/authorize-new-method/', auth, body);

/** PUT authorize-new-method: the code of the first step, with its secret. */
export const confirmAuthorization = (api: TestApi, auth: Auth, body: Body): Test =>
  put(api, '/api/v0/tfa/authorize-new-method/', auth, body);

export const updateMethod = (api: TestApi, auth: Auth, body: Body): Test =>
  put(api, '/api/v0/tfa/update/', auth, body);

export const regenBackupCodes = (api: TestApi, auth: Auth, body: Body): Test =>
  put(api, '/api/v0/tfa/regen-backup-codes/', auth, body);

export function removeMethod(api: TestApi, auth: Auth, body: Body): Test {
  const request = api.http().delete('/api/v0/tfa/');
  if (auth) request.set(auth);
  return request.send(body);
}

/** POST /users/login/ with an email (or username) and a password. */
export const passwordLogin = (api: TestApi, body: Body): Test =>
  post(api, '/api/v0/users/login/', null, body);

/**
 * totp-setup, then confirm-new with the app's current code for that secret (and `extra`
 * fields, e.g. a label): the two requests of adding an authenticator app.
 */
export async function confirmTotp(
  api: TestApi,
  auth: Auth,
  extra: Body = {},
): Promise<{ setup: Response; response: Response }> {
  const setup = await totpSetup(api, auth, {});
  const response = await confirmNew(api, auth, {
    tfa_method: 'totp',
    code: totpCode(setup.body.secret),
    secret: setup.body.secret,
    ...extra,
  });
  return { setup, response };
}
