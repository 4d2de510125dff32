import { RecordingMessageSender } from '@app/messaging/testing';
import { smsBody } from '../../domain/code-message-text';
import { DeliverCodeUseCase } from './deliver-code.use-case';
import { tfaTestKit } from '../../testing/tfa-test-kit';

describe('DeliverCodeUseCase', () => {
  const first = { attempt: 1, maxAttempts: 5 };

  async function setup() {
    const kit = tfaTestKit();
    const provider = new RecordingMessageSender();
    const deliver = new DeliverCodeUseCase(
      kit.store,
      provider,
      kit.secrets,
      kit.settings,
      kit.clock,
    );
    const { challenge } = await kit.challenges.open(7, 'verify');
    return { kit, provider, deliver, challenge };
  }

  it('hands the current code, worded with its absolute expiry, to messaging under a key per send', async () => {
    const { kit, provider, deliver, challenge } = await setup();
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    const code = await kit.lastCode();
    expect(await deliver.execute(kit.queue.jobs[0], first)).toBe('sent');
    expect(provider.attempts).toEqual([
      {
        message: {
          channel: 'sms',
          destination: '+14155550123',
          content: {
            subject: null,
            text: smsBody('GPU Marketplace', {
              code,
              expiresAt: new Date(kit.clock.nowMs() + 10 * 60_000),
            }),
          },
          kind: 'code',
          idempotencyKey: `${challenge.key}-1`,
          requesterDecides: true,
        },
        attempt: 1,
        maxAttempts: 5,
      },
    ]);
  });

  it('carries the same code on a retry and on a resend to the same number', async () => {
    const { kit, provider, deliver, challenge } = await setup();
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    await deliver.execute(kit.queue.jobs[0], first);
    await deliver.execute(kit.queue.jobs[0], { attempt: 2, maxAttempts: 5 });
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    await deliver.execute(kit.queue.jobs[1], first);
    const codes = provider.attempts.map((a) => /\d{6}/.exec(a.message.content.text)?.[0]);
    expect(new Set(codes).size).toBe(1);
    expect(provider.attempts.map((a) => a.message.idempotencyKey)).toEqual([
      `${challenge.key}-1`,
      `${challenge.key}-1`,
      `${challenge.key}-2`,
    ]);
  });

  it('rethrows a retryable failure and marks a send whose attempts all failed', async () => {
    const { kit, provider, deliver, challenge } = await setup();
    await kit.challenges.sendCode(challenge, 'sms', '+14155550123', null);
    provider.next = new Error('provider down');
    await expect(deliver.execute(kit.queue.jobs[0], first)).rejects.toThrow('provider down');
    expect(kit.store.deliveryFailed.size).toBe(0);
    provider.next = { outcome: 'abandoned', provider: 'recording', code: 'delivery_unavailable' };
    expect(await deliver.execute(kit.queue.jobs[0], { attempt: 5, maxAttempts: 5 })).toBe(
      'abandoned',
    );
    expect([...kit.store.deliveryFailed]).toEqual([`${challenge.key}-1`]);
  });

  it('drops a superseded send and a consumed challenge', async () => {
    const { kit, provider, deliver, challenge } = await setup();
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    await kit.challenges.sendCode(challenge, 'email', 'a@b.test', null);
    expect(await deliver.execute(kit.queue.jobs[0], first)).toBe('superseded');
    await kit.store.consume(challenge.key);
    expect(await deliver.execute(kit.queue.jobs[1], first)).toBe('gone');
    expect(provider.attempts).toEqual([]);
  });
});
