import { forgetRecentSend } from '@test/support/delivery';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import {
  addSms,
  enableTotp,
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
  totpSetup,
} from '@test/support/tfa-requests';

/** DELETE /tfa/ and PUT /tfa/regen-backup-codes/, legacy accounts, deprecated test-submit. */
describe('2FA method management', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const status = async (user: TestUser) => (await tfaStatus(api, user.auth)).body;

  describe('DELETE /tfa/', () => {
    it('removes one method and reports remaining_methods', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const sms = await addSms(api, user, testPhone(), { authorize: false });
      const response = await removeMethod(api, user.auth, {
        tfa_method: 'totp',
        code: totpCode(totp.secret),
        target_id: sms.methodId,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        msg: '2FA method removed',
        remaining_methods: 1,
      });
      const after = await status(user);
      expect(after.methods.map((m: { id: number }) => m.id)).toEqual([totp.methodId]);
      expect(after.tfa_enabled).toBe(true);
      expect(after.backup_codes_remaining).toBe(10);
    });

    it('target defaults to the verifying method; the primary moves to a remaining one', async () => {
      const user = await createTestUser(api);
      const phone = testPhone();
      const sms = await addSms(api, user, phone);
      const setup = await totpSetup(api, user.auth, {});
      await confirmNew(api, user.auth, {
        tfa_method: 'totp',
        code: totpCode(setup.body.secret),
        secret: setup.body.secret,
      }).expect(200);
      const sent = await sendSms(api, user.auth, {});
      const response = await removeMethod(api, user.auth, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: sent.body.secret,
      });
      expect(response.body).toEqual({
        success: true,
        msg: '2FA method removed',
        remaining_methods: 1,
      });
      const after = await status(user);
      expect(after.methods).toEqual([
        expect.objectContaining({ method: 'totp', is_primary: true }),
      ]);
      expect(after.methods[0].id).not.toBe(sms.methodId);
    });

    it('removing the last method disables 2FA and soft-deletes the backup codes', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const response = await removeMethod(api, user.auth, {
        tfa_method: 'totp',
        code: totpCode(totp.secret),
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, msg: '2FA Successfully Disabled' });
      const after = await status(user);
      expect(after).toMatchObject({
        tfa_enabled: false,
        tfa_status: 'disabled',
        methods: [],
        backup_codes_remaining: 0,
      });
      const rows = await sql<Array<{ deleted: boolean }>>(
        api,
        `SELECT deleted_at IS NOT NULL AS deleted FROM tfa_backup_codes WHERE user_id = $1`,
        [user.id],
      );
      expect(rows).toHaveLength(10);
      expect(rows.every((row) => row.deleted)).toBe(true);
    });

    it('with a backup code target_id is required; then it removes the target', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const missing = await removeMethod(api, user.auth, { backup_code: totp.backupCodes[0] });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('bad_request');
      expect(missing.body.msg).toContain('target_id');
      const response = await removeMethod(api, user.auth, {
        backup_code: totp.backupCodes[0],
        target_id: totp.methodId,
      });
      expect(response.body.msg).toBe('2FA Successfully Disabled');
    });

    it("another user's method is not_found; wrong codes fail with fail_count; an invalid backup code is 401", async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const other = await createTestUser(api);
      const otherTotp = await enableTotp(api, other);
      const foreign = await removeMethod(api, user.auth, {
        tfa_method: 'totp',
        code: totpCode(totp.secret),
        target_id: otherTotp.methodId,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('not_found');
      const good = totpCode(totp.secret);
      const wrong = await removeMethod(api, user.auth, {
        tfa_method: 'totp',
        code: good === '000000' ? '111111' : '000000',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        error: '2fa_verification_failed',
        fail_count: 1,
        locked_until: null,
      });
      const badBackup = await removeMethod(api, user.auth, {
        backup_code: 'AAAA-BBBB-CCCC',
        target_id: totp.methodId,
      });
      expect(badBackup.status).toBe(401);
      expect(badBackup.body.error).toBe('invalid_backup_code');
      expect((await status(user)).methods).toHaveLength(1);
      await forgetTotpUse(api, totp.methodId);
    });

    it('legacy account: disabled with the same message, no codes touched', async () => {
      const phone = testPhone();
      const user = await createTestUser(api, { phone, legacyTfa: true });
      const sent = await sendSms(api, user.auth, {});
      expect(sent.status).toBe(200);
      const response = await removeMethod(api, user.auth, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: sent.body.secret,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, msg: '2FA Successfully Disabled' });
      const me = await api.http().get('/api/v0/users/current').set(user.auth);
      expect(me.body).toMatchObject({ tfa_enabled: false, tfa_status: 'disabled' });
    });
  });

  describe('PUT /tfa/regen-backup-codes/', () => {
    it('replaces the whole set: 10 new codes once, the old ones stop working', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const response = await regenBackupCodes(api, user.auth, {
        tfa_method: 'totp',
        code: totpCode(totp.secret),
      });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.backup_codes).toHaveLength(10);
      expect(response.body.backup_codes).not.toContain(totp.backupCodes[0]);
      expect((await status(user)).backup_codes_remaining).toBe(10);
      const old = await tfaLogin(api, user.auth, { backup_code: totp.backupCodes[1] });
      expect(old.status).toBe(401);
      const fresh = await tfaLogin(api, user.auth, { backup_code: response.body.backup_codes[0] });
      expect(fresh.status).toBe(200);
    });

    it('verification by backup code or email works too', async () => {
      const user = await createTestUser(api);
      const totp = await enableTotp(api, user);
      const viaBackup = await regenBackupCodes(api, user.auth, {
        backup_code: totp.backupCodes[0],
      });
      expect(viaBackup.body.backup_codes).toHaveLength(10);
      const sent = await sendEmail(api, user.auth, {});
      const viaEmail = await regenBackupCodes(api, user.auth, {
        tfa_method: 'email',
        code: await readCode(api, user.email),
        secret: sent.body.secret,
      });
      expect(viaEmail.status).toBe(200);
      expect(viaEmail.body.backup_codes).toHaveLength(10);
    });

    it('legacy account: backfills an SMS method from the phone on file and issues 10 codes', async () => {
      const phone = testPhone();
      const user = await createTestUser(api, { phone, legacyTfa: true });
      const deprecated = await api
        .http()
        .post('/api/v0/tfa/test-submit/')
        .set(user.auth)
        .send({ tfa_method: 'totp', code: '123456', secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' });
      expect(deprecated.status).toBe(400);
      expect(deprecated.body.error).toBe('untracked_2fa_found');
      expect(deprecated.headers.deprecation).toBe('true');
      const sent = await sendSms(api, user.auth, {});
      const response = await regenBackupCodes(api, user.auth, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: sent.body.secret,
      });
      expect(response.status).toBe(200);
      expect(response.body.backup_codes).toHaveLength(10);
      const after = await status(user);
      expect(after).toMatchObject({
        tfa_enabled: true,
        tfa_status: 'enabled',
        backup_codes_remaining: 10,
      });
      expect(after.methods).toEqual([expect.objectContaining({ method: 'sms', is_primary: true })]);
      expect(after.methods[0].phone_number.endsWith(phone.slice(-4))).toBe(true);
      // The backfilled method now verifies logins.
      await forgetRecentSms(api, user.id);
      await forgetRecentSend(api, phone);
      const again = await sendSms(api, user.auth, {});
      const login = await tfaLogin(api, user.auth, {
        tfa_method: 'sms',
        code: await readCode(api, phone),
        secret: again.body.secret,
      });
      expect(login.status).toBe(200);
      expect(login.body).not.toHaveProperty('legacy_tfa_user');
    });

    it('a missing code is missing_auth_value (400); 2FA off is a verification failure', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const missing = await regenBackupCodes(api, user.auth, { tfa_method: 'totp' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('missing_auth_value');
      const plain = await createTestUser(api);
      const off = await regenBackupCodes(api, plain.auth, { tfa_method: 'totp', code: '123456' });
      expect(off.status).toBe(400);
      expect(off.body.error).toBe('2fa_verification_failed');
    });
  });

  describe('deprecated POST /tfa/test-submit/', () => {
    it('behaves as confirm-new and carries a Deprecation header', async () => {
      const user = await createTestUser(api);
      await enableTotp(api, user);
      const phone = testPhone();
      const sent = await api
        .http()
        .post('/api/v0/tfa/test/')
        .set(user.auth)
        .send({ phone_number: phone });
      expect(sent.status).toBe(200);
      expect(sent.headers.deprecation).toBe('true');
      expect(sent.body).toMatchObject({
        success: true,
        msg: '2FA Sent',
        secret: expect.any(String),
      });
      const response = await api
        .http()
        .post('/api/v0/tfa/test-submit/')
        .set(user.auth)
        .send({
          tfa_method: 'sms',
          code: await readCode(api, phone),
          secret: sent.body.secret,
          phone_number: phone,
        });
      expect(response.status).toBe(200);
      expect(response.headers.deprecation).toBe('true');
      expect(response.body.msg).toBe('SMS 2FA method added successfully');
      expect((await status(user)).methods).toHaveLength(2);
    });
  });
});
