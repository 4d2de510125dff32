import { RecordingMessageSender } from '@app/messaging/testing';
import { noticeContent } from '../../domain/notice-message-text';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { DeliverSecurityNoticeUseCase } from './deliver-security-notice.use-case';

const first = { attempt: 1, maxAttempts: 5 };

async function setup() {
  const kit = accountSecurityKit();
  const provider = new RecordingMessageSender();
  const deliver = new DeliverSecurityNoticeUseCase(
    kit.notices,
    kit.users,
    provider,
    kit.settings,
    kit.clock,
  );
  kit.addUser(7, { email: 'ada@example.test' });
  const event = await kit.eventLog.record({
    userId: 7,
    kind: 'method_removed',
    method: 'sms',
    details: { method_id: 3 },
    origin: ORIGIN,
  });
  return { kit, provider, deliver, event };
}

describe('DeliverSecurityNoticeUseCase', () => {
  it("emails the event to the user's address under its one idempotency key, then marks it sent", async () => {
    const { kit, provider, deliver, event } = await setup();
    expect(await deliver.execute({ eventId: event.id }, first)).toBe('sent');
    expect(provider.attempts).toEqual([
      {
        message: {
          channel: 'email',
          destination: 'ada@example.test',
          content: noticeContent('GPU Marketplace', event),
          kind: 'notice',
          idempotencyKey: `notice-${event.id}`,
          requesterDecides: false,
        },
        ...first,
      },
    ]);
    expect(await kit.notices.findPending(event.id)).toBeNull();
    expect(await deliver.execute({ eventId: event.id }, first)).toBe('gone');
    expect(provider.attempts).toHaveLength(1);
  });

  it('a retryable failure is thrown and the notice stays pending', async () => {
    const { kit, provider, deliver, event } = await setup();
    provider.next = new Error('SMTP busy');
    await expect(deliver.execute({ eventId: event.id }, first)).rejects.toThrow('SMTP busy');
    expect(await kit.notices.findPending(event.id)).not.toBeNull();
  });

  it('a notice given up (the provider refused it, or no address) is no longer pending', async () => {
    const { kit, provider, deliver, event } = await setup();
    provider.next = { outcome: 'abandoned', provider: 'smtp', code: 'email_rejected' };
    expect(await deliver.execute({ eventId: event.id }, first)).toBe('abandoned');
    expect(await kit.notices.findPending(event.id)).toBeNull();

    kit.addUser(8, { email: '' });
    const other = await kit.eventLog.record({
      userId: 8,
      kind: 'tfa_disabled',
      method: 'totp',
      details: {},
      origin: ORIGIN,
    });
    expect(await deliver.execute({ eventId: other.id }, first)).toBe('abandoned');
    expect(provider.attempts).toHaveLength(1);
  });
});
