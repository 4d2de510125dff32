import { createTestUser, loadFixtures, startApi, TestApi } from '@test/support/api';
import {
  addSms,
  authorizeByEmail,
  enableTotp,
  failureState,
  forgetRecentSms,
  forgetTotpUse,
  readCode,
  sql,
  testPhone,
  totpCode,
} from '@test/support/tfa';
import {
  confirmNew,
  regenBackupCodes,
  removeMethod,
  sendEmail,
  sendSms,
  tfaLogin,
  tfaStatus,
} from '@test/support/tfa-requests';

/**
 * Races on the real PostgreSQL and Redis: 50 requests released together. Single-use things
 * are spent exactly once; concurrent changes leave one consistent end state.
 */
const PARALLEL = 50;

describe('races: 50 parallel requests', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });

  afterAll(() => api.close());

  const together = <T>(make: () => Promise<T>) =>
    Promise.all(Array.from({ length: PARALLEL }, make));
  const statuses = (responses: Array<{ status: number }>) =>
    responses.map((response) => response.status);
  const count = (values: number[], wanted: number) =>
    values.filter((value) => value === wanted).length;

  it('one backup code: exactly one login succeeds, the rest are invalid_backup_code', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const responses = await together(() =>
      tfaLogin(api, user.auth, { backup_code: totp.backupCodes[0] }),
    );
    expect(count(statuses(responses), 200)).toBe(1);
    expect(
      responses.filter((r) => r.status === 401 && r.body.error === 'invalid_backup_code'),
    ).toHaveLength(PARALLEL - 1);
  });

  it('one TOTP code: exactly one login succeeds', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const code = totpCode(totp.secret);
    const responses = await together(() =>
      tfaLogin(api, user.auth, { tfa_method: 'totp', code, tfa_method_id: totp.methodId }),
    );
    expect(count(statuses(responses), 200)).toBe(1);
  });

  it('one email challenge: exactly one login succeeds', async () => {
    const user = await createTestUser(api);
    await enableTotp(api, user);
    const sent = await sendEmail(api, user.auth, {});
    expect(sent.status).toBe(200);
    const code = await readCode(api, user.email);
    const responses = await together(() =>
      tfaLogin(api, user.auth, { tfa_method: 'email', code, secret: sent.body.secret }),
    );
    expect(count(statuses(responses), 200)).toBe(1);
    expect(responses.every((r) => r.status === 200 || (r.status >= 400 && r.status < 500))).toBe(
      true,
    );
  });

  it('one SMS challenge: exactly one login succeeds', async () => {
    const user = await createTestUser(api);
    const phone = testPhone();
    const sms = await addSms(api, user, phone);
    await forgetRecentSms(api, user.id);
    const sent = await sendSms(api, user.auth, { tfa_method_id: sms.methodId });
    expect(sent.status).toBe(200);
    const code = await readCode(api, phone);
    const responses = await together(() =>
      tfaLogin(api, user.auth, { tfa_method: 'sms', code, secret: sent.body.secret }),
    );
    expect(count(statuses(responses), 200)).toBe(1);
  });

  it('50 wrong codes: at most 5 comparisons, an exact fail_count of 5, the rest locked', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const right = totpCode(totp.secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const responses = await together(() =>
      tfaLogin(api, user.auth, { tfa_method: 'totp', code: wrong }),
    );
    // Each comparison answers 2fa_verification_failed, except the fifth, which locks the method.
    const failed = responses.filter(
      (r) => r.status === 400 && r.body.error === '2fa_verification_failed',
    );
    const locked = responses.filter((r) => r.status === 429 && r.body.error === 'tfa_locked');
    expect(failed.length).toBeLessThanOrEqual(4);
    expect(failed.length + locked.length).toBe(PARALLEL);
    expect(
      locked.every((r) => r.body.fail_count === 5 && typeof r.body.locked_until === 'number'),
    ).toBe(true);
    expect((await failureState(api, user.id, 'totp')).failCount).toBe(5);
  });

  it('regen-backup-codes with one code: one new set of exactly 10 codes survives', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    const code = totpCode(totp.secret);
    const responses = await together(() =>
      regenBackupCodes(api, user.auth, { tfa_method: 'totp', code }),
    );
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const status = await tfaStatus(api, user.auth);
    expect(status.body.backup_codes_remaining).toBe(10);
    const login = await tfaLogin(api, user.auth, { backup_code: winners[0].body.backup_codes[3] });
    expect(login.status).toBe(200);
  });

  it('delete with one code: the method is removed once and 2FA ends disabled', async () => {
    const user = await createTestUser(api);
    const totp = await enableTotp(api, user);
    await forgetTotpUse(api, totp.methodId);
    const code = totpCode(totp.secret);
    const responses = await together(() =>
      removeMethod(api, user.auth, { tfa_method: 'totp', code }),
    );
    expect(count(statuses(responses), 200)).toBe(1);
    const status = await tfaStatus(api, user.auth);
    expect(status.body).toMatchObject({
      tfa_enabled: false,
      methods: [],
      backup_codes_remaining: 0,
    });
    const me = await api.http().get('/api/v0/users/current/').set(user.auth);
    expect(me.body.tfa_status).toBe('disabled');
  });

  it('confirm-new of the same type: exactly one method is added', async () => {
    const user = await createTestUser(api);
    const first = await enableTotp(api, user);
    expect(first.backupCodes).toHaveLength(10);
    const phone = testPhone();
    await authorizeByEmail(api, user);
    const sent = await sendSms(api, user.auth, { phone_number: phone });
    const code = await readCode(api, phone);
    const responses = await together(() =>
      confirmNew(api, user.auth, {
        tfa_method: 'sms',
        code,
        secret: sent.body.secret,
        phone_number: phone,
      }),
    );
    expect(count(statuses(responses), 200)).toBe(1);
    const rows = await sql<Array<{ n: number }>>(
      api,
      `SELECT count(*)::int AS n FROM tfa_methods WHERE user_id = $1 AND method = 'sms'`,
      [user.id],
    );
    expect(rows[0].n).toBe(1);
  });

  it('unlisting one listing: every call succeeds and the listing ends unlisted, audited', async () => {
    const owner = await createTestUser(api);
    const listingId = 39_000 + (process.pid % 900);
    await loadFixtures(api, {
      volume_listings: [
        {
          id: listingId,
          owner_id: owner.id,
          machine_id: 1,
          size_gb: 10,
          price_per_gb_month: '0.10',
          status: 'listed',
          active_rentals: 0,
        },
      ],
    });
    const responses = await together(() =>
      api.http().post('/api/v0/volumes/unlist').set(owner.auth).send({ id: listingId }),
    );
    expect(
      responses.every((r) => r.status === 200 && r.body.msg === `Unlisted Volume ${listingId}.`),
    ).toBe(true);
    const [listing] = await sql<Array<{ status: string }>>(
      api,
      'SELECT status FROM volume_listings WHERE id = $1',
      [listingId],
    );
    expect(listing.status).toBe('unlisted');
    const audit = await sql<Array<{ n: number }>>(
      api,
      'SELECT count(*)::int AS n FROM volume_listing_audit WHERE listing_id = $1',
      [listingId],
    );
    expect(audit[0].n).toBeGreaterThanOrEqual(1);
  });
});
