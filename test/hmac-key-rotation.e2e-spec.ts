import { createTestUser, startApi, TestApi } from '@test/support/api';
import { enableTotp, readCode } from '@test/support/tfa';
import { sendEmail, tfaLogin } from '@test/support/tfa-requests';

/**
 * SECRET_HMAC_KEY rotation without downtime (docs/operations.md "Key rotation"): after
 * `1:<old>,2:<new>` replaces `<old>`, API keys, backup codes and a pending challenge made
 * under the old key keep working, new ones are made with the new key; dropping the old key
 * is what retires the values made with it.
 */
const OLD = 'old-hmac-key-for-the-rotation-test-0123456789';
const NEW = 'new-hmac-key-for-the-rotation-test-9876543210';

describe('SECRET_HMAC_KEY rotation', () => {
  const apis: TestApi[] = [];
  // Only the first api delivers codes: fewer in-process workers on the shared queue.
  const start = async (key: string) => {
    const api = await startApi({
      SECRET_HMAC_KEY: key,
      ...(apis.length > 0 ? { RUN_WORKER: 'false' } : {}),
    });
    apis.push(api);
    return api;
  };
  afterAll(async () => {
    for (const api of apis) await api.close();
  });

  const current = (api: TestApi, auth: Record<string, string>) =>
    api.http().get('/api/v0/users/current/').set(auth);

  it('keeps what the old key made valid, makes new values with the new key', async () => {
    const before = await start(OLD);
    const user = await createTestUser(before);
    const totp = await enableTotp(before, user);
    const sent = await sendEmail(before, user.auth, {});
    expect(sent.status).toBe(200);
    const code = await readCode(before, user.email);

    const during = await start(`1:${OLD},2:${NEW}`);
    // An API key, a pending challenge with its code, a backup code: all made under OLD.
    expect((await current(during, user.auth)).status).toBe(200);
    const login = await tfaLogin(during, user.auth, {
      tfa_method: 'email',
      code,
      secret: sent.body.secret,
    });
    expect(login.status).toBe(200);
    const backup = await tfaLogin(during, user.auth, { backup_code: totp.backupCodes[0] });
    expect(backup.status).toBe(200);
    // A session key made now is fingerprinted with NEW: the old-key-only api does not know it.
    const session = { Authorization: `Bearer ${login.body.session_key}` };
    expect((await current(during, session)).status).toBe(200);
    expect((await current(before, session)).status).toBe(404);

    // Made under NEW, still valid while NEW is listed, even below a renumbered OLD.
    const fresh = await createTestUser(during);
    const renumbered = await start(`0:${NEW},1:${OLD}`);
    expect((await current(renumbered, fresh.auth)).status).toBe(200);

    const after = await start(`2:${NEW}`);
    expect((await current(after, fresh.auth)).status).toBe(200);
    expect((await current(after, session)).status).toBe(200);
    // Dropping OLD retires what only OLD made.
    expect((await current(after, user.auth)).status).toBe(404);
  });
});
