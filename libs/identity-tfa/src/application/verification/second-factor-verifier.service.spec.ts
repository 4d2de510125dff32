import { DomainError } from '@app/platform';
import { totpSecretAad } from '../../domain/tfa-method';
import { encodeBase32, totpCodeForStep, totpStepAt } from '../../domain/totp';
import { channelView } from '../../domain/verification-failures';
import { ORIGIN, tfaTestKit } from '../../testing/tfa-test-kit';

const MINUTE = 60 * 1000;
const options = {
  purposes: ['verify' as const],
  failure: '2fa_verification_failed' as const,
  origin: ORIGIN,
};

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

async function setup() {
  const kit = tfaTestKit();
  const user = kit.users.add({ id: 7, tfaEnabled: true, tfaStatus: 'enabled' });
  const secret = encodeBase32(Buffer.alloc(20, 9));
  const method = (await kit.methods.create({
    userId: 7,
    type: 'totp',
    label: 'app',
    phoneNumber: null,
    isPrimary: true,
    lastTotpStep: null,
  }))!;
  await kit.methods.setTotpSecret(method.id, kit.secrets.encrypt(secret, totpSecretAad(method.id)));
  const codeAt = (offsetSteps: number) =>
    totpCodeForStep(secret, totpStepAt(kit.clock.nowMs()) + offsetSteps);
  const verify = (code: string) => kit.verifier.verify(user, { tfaMethod: 'totp', code }, options);
  const failCount = async (channel: 'totp' | 'sms' | 'email' | 'backup_code') =>
    channelView(await kit.ledger.load(7), channel, kit.clock.nowMs()).failCount;
  const emailCode = async () => {
    const opened = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(opened.challenge, 'email', user.email, null);
    return { secret: opened.secret, code: await kit.lastCode() };
  };
  const viaEmail = (secret: string, code: string) =>
    kit.verifier.verify(user, { tfaMethod: 'email', code, secret }, options);
  return { kit, user, method, codeAt, verify, failCount, emailCode, viaEmail };
}

const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

describe('SecondFactorVerifier', () => {
  describe('TOTP steps', () => {
    it('accepts the current and the previous step, not older or future ones', async () => {
      const { kit, codeAt, verify } = await setup();
      await expect(verify(codeAt(-1))).resolves.toMatchObject({ kind: 'method', channel: 'totp' });
      kit.clock.advance(30_000);
      await expect(verify(codeAt(0))).resolves.toMatchObject({ kind: 'method' });
      kit.clock.advance(30_000);
      expect((await failure(verify(codeAt(-2)))).code).toBe('2fa_verification_failed');
      expect((await failure(verify(codeAt(1)))).code).toBe('2fa_verification_failed');
    });

    it('a code is accepted once: its step and older ones are replays, never counted', async () => {
      const { codeAt, verify, failCount } = await setup();
      const code = codeAt(0);
      await verify(code);
      const replay = await failure(verify(code));
      expect(replay.code).toBe('2fa_verification_failed');
      expect(replay.message).toMatch(/already used/);
      expect(replay.details).toEqual({ fail_count: 0, locked_until: null });
      // The previous step is older than the one just used.
      expect((await failure(verify(codeAt(-1)))).message).toMatch(/already used/);
      expect(await failCount('totp')).toBe(0);
    });

    it('an undecryptable secret is tfa_method_not_configured', async () => {
      const { kit, method, codeAt, verify } = await setup();
      await kit.methods.setTotpSecret(
        method.id,
        kit.secrets.encrypt('JBSWY3DPEHPK3PXP', 'another-aad'),
      );
      expect((await failure(verify(codeAt(0)))).code).toBe('tfa_method_not_configured');
    });
  });

  describe('lockout', () => {
    it('5 failures lock the method for 15 minutes; still locked at 14:59, open at 15:00.001', async () => {
      const { kit, codeAt, verify, failCount } = await setup();
      const wrong = () => (codeAt(0) === '000000' ? '111111' : '000000');
      for (let i = 1; i <= 4; i += 1)
        expect((await failure(verify(wrong()))).details).toEqual({
          fail_count: i,
          locked_until: null,
        });
      const locked = await failure(verify(wrong()));
      const lockEnd = kit.clock.nowMs() + 15 * MINUTE;
      expect(locked.code).toBe('tfa_locked');
      expect(kit.metrics.counts.filter((c) => c.name === 'tfa_lockouts_total')).toEqual([
        { name: 'tfa_lockouts_total', labels: { method: 'totp' } },
      ]);
      expect(locked.details).toEqual({ fail_count: 5, locked_until: Math.ceil(lockEnd / 1000) });
      kit.clock.advance(14 * MINUTE + 59 * 1000);
      expect((await failure(verify(codeAt(0)))).code).toBe('tfa_locked');
      kit.clock.set(lockEnd + 1);
      await expect(verify(codeAt(0))).resolves.toMatchObject({ kind: 'method' });
      expect(await failCount('totp')).toBe(0);
    });

    it('a success resets the count', async () => {
      const { codeAt, verify, failCount } = await setup();
      const wrong = otherThan(codeAt(0));
      await failure(verify(wrong));
      await failure(verify(wrong));
      expect(await failCount('totp')).toBe(2);
      await verify(codeAt(0));
      expect(await failCount('totp')).toBe(0);
    });

    it('failures older than 15 minutes stop counting', async () => {
      const { kit, codeAt, verify, failCount } = await setup();
      for (let i = 0; i < 4; i += 1) await failure(verify(otherThan(codeAt(0))));
      kit.clock.advance(15 * MINUTE);
      expect(await failCount('totp')).toBe(0);
      expect((await failure(verify(otherThan(codeAt(0))))).details).toMatchObject({
        fail_count: 1,
      });
    });

    it('email codes are counted per user: a new challenge resets nothing', async () => {
      const { emailCode, viaEmail, failCount } = await setup();
      for (let i = 1; i <= 4; i += 1) {
        const { secret, code } = await emailCode();
        expect((await failure(viaEmail(secret, otherThan(code)))).details).toMatchObject({
          fail_count: i,
        });
      }
      const fifth = await emailCode();
      expect((await failure(viaEmail(fifth.secret, otherThan(fifth.code)))).code).toBe(
        'tfa_locked',
      );
      // Locked: even the right code of a brand-new challenge is not compared.
      const fresh = await emailCode();
      expect((await failure(viaEmail(fresh.secret, fresh.code))).code).toBe('tfa_locked');
      expect(await failCount('email')).toBe(5);
    });

    it('the sum over all channels is capped at 10: then every channel is locked', async () => {
      const { kit, user, codeAt, verify, emailCode, viaEmail } = await setup();
      for (let i = 0; i < 4; i += 1) await failure(verify(otherThan(codeAt(0))));
      for (let i = 0; i < 4; i += 1) {
        const { secret, code } = await emailCode();
        await failure(viaEmail(secret, otherThan(code)));
      }
      const backup = (code: string) => kit.verifier.verify(user, { backupCode: code }, options);
      expect((await failure(backup('AAAA-AAAA-AAAA'))).code).toBe('invalid_backup_code');
      const tenth = await failure(backup('BBBB-BBBB-BBBB'));
      expect(tenth.code).toBe('tfa_locked');
      expect(tenth.details).toMatchObject({ fail_count: 10 });
      expect((await failure(verify(codeAt(0)))).code).toBe('tfa_locked');
    });
  });

  describe('validation before counting', () => {
    it('a malformed backup code is bad_request and counts nothing', async () => {
      const { kit, user, failCount } = await setup();
      const error = await failure(kit.verifier.verify(user, { backupCode: 'ABC' }, options));
      expect(error.code).toBe('bad_request');
      expect(await failCount('backup_code')).toBe(0);
    });
  });

  describe('backup codes', () => {
    it('single use, case-insensitive, dashes optional', async () => {
      const { kit, user } = await setup();
      const codes = await kit.backupCodeIssuer.issue(user.id);
      expect(codes).toHaveLength(10);
      const first = await kit.verifier.verify(
        user,
        { backupCode: codes[0].toLowerCase().replace(/-/g, '') },
        options,
      );
      expect(first).toEqual({ kind: 'backup_code', remaining: 9 });
      const replay = await failure(kit.verifier.verify(user, { backupCode: codes[0] }, options));
      expect(replay.code).toBe('invalid_backup_code');
      expect(replay.message).toMatch(/already used/);
      expect(channelView(await kit.ledger.load(7), 'backup_code', 0).failCount).toBe(0);
      expect(kit.backupCodes.rows.map((row) => row.digest).join()).not.toContain(
        codes[1].replace(/-/g, ''),
      );
    });
  });

  describe('SMS', () => {
    it('a code sent to another number than the method is phone_number_mismatch', async () => {
      const { kit, user } = await setup();
      const sms = (await kit.methods.create({
        userId: 7,
        type: 'sms',
        label: 's',
        phoneNumber: '+15550001111',
        isPrimary: false,
        lastTotpStep: null,
      }))!;
      const { secret, challenge } = await kit.challenges.open(7, 'verify');
      await kit.challenges.sendCode(challenge, 'sms', '+15550002222', null);
      const error = await failure(
        kit.verifier.verify(
          user,
          { tfaMethodId: sms.id, code: await kit.lastCode(), secret },
          options,
        ),
      );
      expect(error.code).toBe('phone_number_mismatch');
    });
  });
});

describe('SecondFactorVerifier: events of the verification', () => {
  it('the failure that locks a channel records method_locked in its transaction; no other failure records anything', async () => {
    const { kit, codeAt, verify } = await setup();
    for (let i = 1; i <= 4; i += 1) await failure(verify(otherThan(codeAt(0))));
    expect(kit.events.rows).toEqual([]);
    expect((await failure(verify(otherThan(codeAt(0))))).code).toBe('tfa_locked');
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        userId: 7,
        kind: 'method_locked',
        method: 'totp',
        details: { scope: 'channel', fail_count: 5 },
        origin: ORIGIN,
      }),
    ]);
    expect(kit.noticeQueue.jobs.map((job) => job.eventId)).toEqual([kit.events.rows[0].id]);
    // Refused while locked: nothing compared, nothing recorded.
    await failure(verify(otherThan(codeAt(0))));
    expect(kit.events.rows).toHaveLength(1);
  });

  it('the user-wide lock names the channel of the failure that reached it', async () => {
    const { kit, user, codeAt, verify, emailCode, viaEmail } = await setup();
    for (let i = 0; i < 4; i += 1) await failure(verify(otherThan(codeAt(0))));
    for (let i = 0; i < 4; i += 1) {
      const { secret, code } = await emailCode();
      await failure(viaEmail(secret, otherThan(code)));
    }
    const backup = (code: string) => kit.verifier.verify(user, { backupCode: code }, options);
    await failure(backup('AAAA-AAAA-AAAA'));
    await failure(backup('BBBB-BBBB-BBBB'));
    expect(kit.eventKinds(7)).toEqual(['method_locked:backup_code']);
    expect(kit.events.rows[0].details).toEqual({ scope: 'user', fail_count: 10 });
  });

  it('a backup code spent records backup_code_used with the codes left; a replay records nothing', async () => {
    const { kit, user } = await setup();
    const [code] = await kit.backupCodeIssuer.issue(7);
    await kit.verifier.verify(user, { backupCode: code }, options);
    expect(kit.eventKinds(7)).toEqual(['backup_code_used:backup_code']);
    expect(kit.events.rows[0].details).toEqual({ remaining: 9 });
    await failure(kit.verifier.verify(user, { backupCode: code }, options));
    expect(kit.events.rows).toHaveLength(1);
  });

  it('a backup code whose action fails records no use: the code stays usable', async () => {
    const { kit, user } = await setup();
    const [code] = await kit.backupCodeIssuer.issue(7);
    await expect(
      kit.verifier.verifyAndThen(user, { backupCode: code }, options, async () => {
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(kit.events.rows).toEqual([]);
    expect(kit.noticeQueue.jobs).toEqual([]);
    expect(await kit.backupCodes.countUnused(7)).toBe(10);
  });
});
