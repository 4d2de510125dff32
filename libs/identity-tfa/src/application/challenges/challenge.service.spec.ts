import { decodeToken, DomainError } from '@app/platform';
import { SeededRandomSource } from '@app/platform/testing';
import { tfaTestKit } from '../../testing/tfa-test-kit';
import { ChallengeService } from './challenge.service';

const MINUTE = 60 * 1000;

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'none';
}

describe('ChallengeService', () => {
  it('issues letter-and-digit secrets of 128 bits and stores only their fingerprint', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'login');
    expect(secret).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(decodeToken(secret, 16)).toHaveLength(16);
    expect(challenge.key).not.toContain(secret);
    expect([...kit.store.challenges.keys()]).toEqual([kit.challenges.keyOf(secret)]);
  });

  it('still accepts a secret issued in the old base64url form, leading "-" included, until it expires', async () => {
    const kit = tfaTestKit();
    // The encoding used before secrets became letters and digits.
    const legacyRandom = new (class extends SeededRandomSource {
      override token(bits: number): string {
        return Buffer.concat([Buffer.from([0xf8]), this.bytes(bits / 8 - 1)]).toString('base64url');
      }
    })();
    const legacy = new ChallengeService(kit.store, kit.queue, kit.secrets, legacyRandom, kit.clock);
    const { secret } = await legacy.open(7, 'verify');
    expect(secret).toMatch(/^-[A-Za-z0-9_-]{21}$/);
    await expect(kit.challenges.load(secret)).resolves.toMatchObject({ userId: 7 });
    kit.clock.advance(10 * MINUTE + 1);
    expect(await errorCode(kit.challenges.load(secret))).toBe('2fa_expired');
  });

  it('is valid at 9:59 and expired at 10:00.001 (2fa_expired)', async () => {
    const kit = tfaTestKit();
    const { secret } = await kit.challenges.open(7, 'verify');
    kit.clock.advance(9 * MINUTE + 59 * 1000);
    await expect(kit.challenges.load(secret)).resolves.toMatchObject({ userId: 7 });
    kit.clock.advance(1001);
    expect(await errorCode(kit.challenges.load(secret))).toBe('2fa_expired');
  });

  it('tells never-issued, used and timed-out secrets apart', async () => {
    const kit = tfaTestKit();
    expect(await errorCode(kit.challenges.load('never-issued'))).toBe('challenge_not_found');
    const used = await kit.challenges.open(7, 'verify');
    await kit.challenges.retire(used.challenge);
    expect(await errorCode(kit.challenges.load(used.secret))).toBe('no_challenge_found');
    const dropped = await kit.challenges.open(7, 'verify');
    kit.store.drop(dropped.challenge.key);
    expect(await errorCode(kit.challenges.load(dropped.secret))).toBe('2fa_expired');
  });

  it('queues the delivery without the code; only a keyed digest is stored', async () => {
    const kit = tfaTestKit();
    const { challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', '+15550001111', null);
    const code = await kit.lastCode();
    expect(code).toMatch(/^\d{6}$/);
    expect(kit.queue.jobs).toEqual([{ challengeKey: challenge.key, sendNumber: 1 }]);
    const stored = kit.store.challenges.get(challenge.key)!;
    expect(stored.codeDigest).not.toContain(code);
    expect(stored.codeCiphertext).not.toContain(code);
  });

  it('compares codes without counting: a new challenge and its wrong codes reset nothing here', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    const code = await kit.lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    const loaded = await kit.challenges.load(secret);
    for (let i = 0; i < 8; i += 1) expect(kit.challenges.codeMatches(loaded, wrong)).toBe(false);
    expect(kit.challenges.codeMatches(loaded, code)).toBe(true);
    // A code is bound to its challenge: the same digits do not match another one.
    const other = await kit.challenges.open(7, 'verify');
    expect(kit.challenges.codeMatches(other.challenge, code)).toBe(false);
  });

  it('a retired challenge reads as used', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    await kit.challenges.retire(await kit.challenges.load(secret));
    expect(await errorCode(kit.challenges.load(secret))).toBe('no_challenge_found');
  });

  it('a resend repeats the same code and stops after 5 sends (sms_rate_limited)', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    const first = await kit.lastCode();
    for (let i = 0; i < 4; i += 1) {
      await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
      expect(await kit.lastCode()).toBe(first);
    }
    expect(kit.queue.jobs.map((job) => job.sendNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(await errorCode(kit.challenges.sendCode(challenge, 'sms', '+14155550123', null))).toBe(
      'sms_rate_limited',
    );
    expect(kit.challenges.codeMatches(await kit.challenges.load(secret), first)).toBe(true);
  });

  it('a send to another destination replaces the code', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'login');
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    const emailed = await kit.lastCode();
    kit.random.digits = () => (emailed === '123456' ? '654321' : '123456');
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', 9);
    const texted = await kit.lastCode();
    expect(texted).not.toBe(emailed);
    const loaded = await kit.challenges.load(secret);
    expect(loaded).toMatchObject({ channel: 'sms', destination: '+14155550123', methodId: 9 });
    expect(kit.challenges.codeMatches(loaded, emailed)).toBe(false);
    expect(kit.challenges.codeMatches(loaded, texted)).toBe(true);
  });

  it("relays the SMS provider's refusal of the first attempt; email failures stay silent", async () => {
    const kit = tfaTestKit();
    const { challenge } = await kit.challenges.open(7, 'verify');
    kit.queue.nextReport = { state: 'failed', code: 'twilio_error' };
    expect(await errorCode(kit.challenges.sendCode(challenge, 'sms', '+14155550123', null))).toBe(
      'twilio_error',
    );
    kit.queue.nextReport = { state: 'failed', code: 'twilio_rate_limited' };
    expect(await errorCode(kit.challenges.sendCode(challenge, 'sms', '+14155550123', null))).toBe(
      'twilio_rate_limited',
    );
    kit.queue.nextReport = { state: 'failed', code: 'email_rejected' };
    const mail = await kit.challenges.open(7, 'verify');
    await expect(
      kit.challenges.sendCode(mail.challenge, 'email', 'a@b.test', null),
    ).resolves.toBeUndefined();
  });

  it("re-issues the pending SMS challenge's secret: same id and code, old secret used up", async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    const code = await kit.lastCode();
    const pending = await kit.challenges.pendingSms(7);
    expect(pending.key).toBe(challenge.key);
    const fresh = await kit.challenges.reissueSecret(pending);
    expect(fresh).not.toBe(secret);
    expect(await errorCode(kit.challenges.load(secret))).toBe('no_challenge_found');
    const moved = await kit.challenges.load(fresh);
    expect(moved.id).toBe(challenge.id);
    expect(kit.challenges.codeMatches(moved, code)).toBe(true);
    expect((await kit.challenges.pendingSms(7)).key).toBe(moved.key);
  });

  it('finds no pending SMS challenge for another user, after expiry, or for email', async () => {
    const kit = tfaTestKit();
    expect(await errorCode(kit.challenges.pendingSms(7))).toBe('no_challenge_found');
    const { challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    expect(await errorCode(kit.challenges.pendingSms(8))).toBe('no_challenge_found');
    kit.clock.advance(10 * MINUTE);
    expect(await errorCode(kit.challenges.pendingSms(7))).toBe('no_challenge_found');
  });
});
