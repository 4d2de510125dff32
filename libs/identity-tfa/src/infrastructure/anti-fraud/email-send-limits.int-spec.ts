import { randomUUID } from 'node:crypto';
import { DomainError, Environment, RedisConnectionFactory } from '@app/platform';
import { testSecretKeeper } from '@app/platform/testing';
import { RedisRateLimiter } from '@app/platform/infrastructure/redis/redis-rate-limiter';
import { EmailSendLimitsPolicy, loadEmailSendLimits } from './email-send-limits';

/** 'admitted', or the code of the refusal. */
const outcome = (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'admitted',
    (error: unknown) => {
      if (error instanceof DomainError) return error.code;
      throw error;
    },
  );

describe('email send limits (real Redis)', () => {
  const factory = new RedisConnectionFactory(process.env.REDIS_URL!);
  /** Two policies on two connections stand for two api processes. */
  let a: EmailSendLimitsPolicy;
  let b: EmailSendLimitsPolicy;

  beforeAll(() => {
    const limits = loadEmailSendLimits(new Environment({}));
    a = new EmailSendLimitsPolicy(
      new RedisRateLimiter(factory.createCommandConnection('email-a')),
      testSecretKeeper(),
      limits,
    );
    b = new EmailSendLimitsPolicy(
      new RedisRateLimiter(factory.createCommandConnection('email-b')),
      testSecretKeeper(),
      limits,
    );
  });
  afterAll(() => factory.closeAll());

  const user = () => 800_000_000 + Math.floor(Math.random() * 99_999_999);
  const address = () => `${randomUUID()}@example.test`;

  it('admits 5 per user in a window across processes, whatever the parallelism', async () => {
    const userId = user();
    const destination = address();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        outcome((i % 2 ? a : b).assertMaySend({ userId, destination })),
      ),
    );
    expect(results.filter((r) => r === 'admitted')).toHaveLength(5);
    expect(results.filter((r) => r === 'sms_rate_limited')).toHaveLength(15);
    // Another user is not held back.
    expect(await outcome(a.assertMaySend({ userId: user(), destination: address() }))).toBe(
      'admitted',
    );
  });

  it('admits 5 per address (in any case) whichever users ask, giving the users theirs back', async () => {
    const destination = address();
    const users = Array.from({ length: 6 }, user);
    for (const userId of users.slice(0, 5))
      expect(
        await outcome(a.assertMaySend({ userId, destination: destination.toUpperCase() })),
      ).toBe('admitted');
    expect(await outcome(b.assertMaySend({ userId: users[5], destination }))).toBe(
      'sms_rate_limited',
    );
    // The refusal by the address cost users[5] nothing: 5 sends elsewhere still go.
    for (let i = 0; i < 5; i++)
      expect(await outcome(b.assertMaySend({ userId: users[5], destination: address() }))).toBe(
        'admitted',
      );
  });

  it('a refunded send frees its place at once', async () => {
    const userId = user();
    const destination = address();
    const permits = [];
    for (let i = 0; i < 5; i++) permits.push(await a.assertMaySend({ userId, destination }));
    expect(await outcome(a.assertMaySend({ userId, destination }))).toBe('sms_rate_limited');
    await permits[0].refund();
    expect(await outcome(b.assertMaySend({ userId, destination }))).toBe('admitted');
  });
});
