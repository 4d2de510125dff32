import { DomainError } from '@app/platform';
import { tfaTestKit } from '../testing/tfa-test-kit';

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
  it('issues URL-safe secrets of at least 128 bits and stores only their fingerprint', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'login');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(challenge.key).not.toContain(secret);
    expect([...kit.store.challenges.keys()]).toEqual([kit.challenges.keyOf(secret)]);
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
    await kit.challenges.consume(used.challenge);
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

  it('accepts at most 5 wrong codes, then discards the challenge', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    const code = await kit.lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    const loaded = await kit.challenges.load(secret);
    for (let i = 0; i < 5; i += 1)
      expect(await kit.challenges.checkCode(loaded, wrong)).toBe(false);
    expect(await errorCode(kit.challenges.load(secret))).toBe('no_challenge_found');
  });

  it('a correct code is single use', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    const loaded = await kit.challenges.load(secret);
    expect(await kit.challenges.checkCode(loaded, await kit.lastCode())).toBe(true);
    await kit.challenges.consume(loaded);
    expect(await errorCode(kit.challenges.consume(loaded))).toBe('no_challenge_found');
  });

  it('a resend replaces the code and stops after 5 sends (sms_rate_limited)', async () => {
    const kit = tfaTestKit();
    const { secret, challenge } = await kit.challenges.open(7, 'verify');
    await kit.challenges.sendCode(challenge, 'sms', '+15550001111', null);
    const first = await kit.lastCode();
    for (let i = 0; i < 4; i += 1)
      await kit.challenges.sendCode(challenge, 'sms', '+15550001111', null);
    const last = await kit.lastCode();
    expect(kit.queue.jobs.map((job) => job.sendNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(await errorCode(kit.challenges.sendCode(challenge, 'sms', '+15550001111', null))).toBe(
      'sms_rate_limited',
    );
    const loaded = await kit.challenges.load(secret);
    if (first !== last) expect(await kit.challenges.checkCode(loaded, first)).toBe(false);
    expect(await kit.challenges.checkCode(loaded, last)).toBe(true);
  });
});
