import Redis from 'ioredis';
import { DomainError, Environment, RedisConnectionFactory } from '@app/platform';
import { ManualClock, testSecretKeeper } from '@app/platform/testing';
import { RedisSmsSendCounters, userSmsKey } from './redis-sms-send-counters';
import { SmsSendRequest } from '../../application/ports/sms-sending-policy.port';
import { SmsAntiFraudPolicy } from './sms-anti-fraud.policy';
import { loadSmsAntiFraudSettings, SmsAntiFraudSettings } from './sms-anti-fraud-settings';

let sequence = 0;
/** Unique per run: the counters persist in the shared test Redis. */
function freshNumber(): string {
  sequence += 1;
  return `+1415${String((Date.now() * 7 + sequence) % 10_000_000).padStart(7, '0')}`;
}
function freshUser(): number {
  sequence += 1;
  return 900_000_000 + ((Date.now() + sequence * 7919) % 99_999_999);
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return 'admitted';
}

describe('SMS anti-fraud counters (real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  let first: Redis;
  let second: Redis;
  let clock: ManualClock;
  let settings: SmsAntiFraudSettings;
  /** Two policies on two connections stand for two api processes. */
  let processA: SmsAntiFraudPolicy;
  let processB: SmsAntiFraudPolicy;

  const make = (redis: Redis, overrides: Record<string, string> = {}) => {
    settings = loadSmsAntiFraudSettings(new Environment(overrides));
    return new SmsAntiFraudPolicy(
      new RedisSmsSendCounters(redis, testSecretKeeper(), settings),
      settings,
      clock,
    );
  };
  const send = (
    policy: SmsAntiFraudPolicy,
    request: Partial<SmsSendRequest> & { userId: number; destination: string },
  ) => refusal(policy.assertMaySend({ resend: false, smsFraudFlagged: false, ...request }));

  beforeAll(() => {
    first = factory.createCommandConnection('anti-fraud-a');
    second = factory.createCommandConnection('anti-fraud-b');
  });
  beforeEach(() => {
    clock = new ManualClock(Date.now());
    processA = make(first);
    processB = make(second);
  });
  afterAll(() => factory.closeAll());

  it('admits 5 SMS per user in 10 minutes across processes, refuses the 6th, admits again later', async () => {
    const userId = freshUser();
    for (let i = 0; i < 5; i += 1) {
      expect(await send(i % 2 ? processA : processB, { userId, destination: freshNumber() })).toBe(
        'admitted',
      );
      clock.advance(61_000);
    }
    expect(await send(processA, { userId, destination: freshNumber() })).toBe('sms_rate_limited');
    clock.advance(10 * 60_000 - 4 * 61_000);
    expect(await send(processB, { userId, destination: freshNumber() })).toBe('admitted');
  });

  it('admits 5 SMS per number in 10 minutes, whoever asks', async () => {
    const destination = freshNumber();
    const [a, b] = [freshUser(), freshUser()];
    for (let i = 0; i < 5; i += 1) {
      expect(await send(processA, { userId: i % 2 ? a : b, destination, resend: true })).toBe(
        'admitted',
      );
    }
    expect(await send(processB, { userId: a, destination, resend: true })).toBe('sms_rate_limited');
  });

  it('refuses a new SMS to a number served less than 60 s ago (tfa_challenge_exists), not a resend', async () => {
    const userId = freshUser();
    const destination = freshNumber();
    expect(await send(processA, { userId, destination })).toBe('admitted');
    clock.advance(59_999);
    expect(await send(processB, { userId, destination })).toBe('tfa_challenge_exists');
    expect(await send(processB, { userId, destination, resend: true })).toBe('admitted');
    clock.advance(60_000);
    expect(await send(processA, { userId, destination })).toBe('admitted');
  });

  it('caps one number at 3 accounts in 24 hours (preauth_phone_cap); known accounts keep working', async () => {
    const destination = freshNumber();
    const users = [freshUser(), freshUser(), freshUser(), freshUser()];
    for (const userId of users.slice(0, 3)) {
      expect(await send(processA, { userId, destination, resend: true })).toBe('admitted');
    }
    expect(await send(processB, { userId: users[3], destination, resend: true })).toBe(
      'preauth_phone_cap',
    );
    expect(await send(processB, { userId: users[0], destination, resend: true })).toBe('admitted');
    clock.advance(24 * 3600_000 + 1);
    expect(await send(processB, { userId: users[3], destination, resend: true })).toBe('admitted');
  });

  it('of 20 simultaneous sends for one user exactly 5 are admitted', async () => {
    const userId = freshUser();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(i % 2 ? processA : processB, { userId, destination: freshNumber() }),
      ),
    );
    expect(verdicts.filter((verdict) => verdict === 'admitted')).toHaveLength(5);
    expect(verdicts.filter((verdict) => verdict === 'sms_rate_limited')).toHaveLength(15);
  });

  it('a refused send consumes no budget', async () => {
    const userId = freshUser();
    const destination = freshNumber();
    expect(await send(processA, { userId, destination })).toBe('admitted');
    for (let i = 0; i < 10; i += 1)
      expect(await send(processA, { userId, destination })).toBe('tfa_challenge_exists');
    for (let i = 0; i < 4; i += 1)
      expect(await send(processA, { userId, destination, resend: true })).toBe('admitted');
  });

  it('thresholds come from config', async () => {
    const strict = make(first, { SMS_LIMIT_PER_USER: '1', SMS_MIN_INTERVAL_SECONDS: '0' });
    const userId = freshUser();
    expect(await send(strict, { userId, destination: freshNumber() })).toBe('admitted');
    expect(await send(strict, { userId, destination: freshNumber() })).toBe('sms_rate_limited');
  });

  it('refuses flagged accounts (403 sms_fraud_detected) and blocked numbers before counting', async () => {
    const policy = make(first, { SMS_BLOCKED_PREFIXES: '+882', SMS_BLOCKED_COUNTRIES: 'GB' });
    const userId = freshUser();
    expect(await send(policy, { userId, destination: freshNumber(), smsFraudFlagged: true })).toBe(
      'sms_fraud_detected',
    );
    expect(await send(policy, { userId, destination: '+8823456789012' })).toBe(
      'sms_blocked_number',
    );
    expect(await send(policy, { userId, destination: '+442079460958' })).toBe('sms_blocked_number');
    expect(await send(policy, { userId, destination: 'not a number' })).toBe('bad_request');
    expect(await first.exists(userSmsKey(userId))).toBe(0);
  });

  it('keeps phone numbers out of key names', async () => {
    const userId = freshUser();
    const destination = freshNumber();
    await send(processA, { userId, destination });
    expect(await first.keys(`*${destination.slice(1)}*`)).toEqual([]);
  });
});
