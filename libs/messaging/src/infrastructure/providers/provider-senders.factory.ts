import { MessageChannel } from '../../domain/message';
import { DeliverySettings } from '../delivery-settings';
import { ProviderSender } from './provider-sender';
import { SmtpEmailSender } from './smtp-email.sender';
import { TwilioSmsSender } from './twilio-sms.sender';

/** The sender of each channel, chosen once at boot. */
export class ProviderSenders {
  constructor(private readonly byChannel: Record<MessageChannel, ProviderSender>) {}

  for(channel: MessageChannel): ProviderSender {
    return this.byChannel[channel];
  }

  /** Releases pooled connections (SMTP) on shutdown. */
  close(): void {
    for (const sender of new Set(Object.values(this.byChannel)))
      if (sender instanceof SmtpEmailSender) sender.close();
  }
}

/**
 * One adapter per provider, picked by SMS_PROVIDER and EMAIL_PROVIDER. The outbox sender
 * is passed in: it needs the database, the real providers do not.
 */
export function createProviderSenders(
  settings: DeliverySettings,
  outbox: () => ProviderSender,
  fetchImpl: typeof fetch = fetch,
): ProviderSenders {
  const sms =
    settings.smsProvider === 'twilio' && settings.twilio
      ? new TwilioSmsSender(settings.twilio, fetchImpl)
      : outbox();
  const email =
    settings.emailProvider === 'smtp' && settings.smtp
      ? new SmtpEmailSender(settings.smtp)
      : outbox();
  return new ProviderSenders({ sms, email });
}
