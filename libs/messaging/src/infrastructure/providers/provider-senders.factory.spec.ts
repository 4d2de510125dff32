import { Environment } from '@app/platform';
import { loadDeliverySettings } from '../delivery-settings';
import { ProviderSender, SentMessage } from './provider-sender';
import { createProviderSenders } from './provider-senders.factory';

class StubOutbox extends ProviderSender {
  readonly name = 'outbox';
  async send(): Promise<SentMessage> {
    return { providerMessageId: 'outbox-1' };
  }
  async findSent(): Promise<SentMessage | null> {
    return null;
  }
}

describe('provider sender selection', () => {
  it('the outbox serves both channels by default', () => {
    const senders = createProviderSenders(
      loadDeliverySettings(new Environment({})),
      () => new StubOutbox(),
    );
    expect(senders.for('sms').name).toBe('outbox');
    expect(senders.for('email').name).toBe('outbox');
  });

  it('twilio and smtp are picked per channel', () => {
    const settings = loadDeliverySettings(
      new Environment({
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_FROM: '+14155550100',
        EMAIL_PROVIDER: 'smtp',
        SMTP_HOST: '127.0.0.1',
        SMTP_FROM: 'no-reply@example.test',
      }),
    );
    const senders = createProviderSenders(settings, () => new StubOutbox());
    expect(senders.for('sms').name).toBe('twilio');
    expect(senders.for('email').name).toBe('smtp');
    senders.close();
  });

  it('mixes a real provider on one channel with the outbox on the other', () => {
    const settings = loadDeliverySettings(
      new Environment({ EMAIL_PROVIDER: 'smtp', SMTP_HOST: 'h', SMTP_FROM: 'a@b.test' }),
    );
    const senders = createProviderSenders(settings, () => new StubOutbox());
    expect([senders.for('sms').name, senders.for('email').name]).toEqual(['outbox', 'smtp']);
    senders.close();
  });
});
