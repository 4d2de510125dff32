import { Clock } from '@app/platform';
import { CodeChannel, CodeSender } from './code-sender';
import { DeliverySettings } from './delivery-settings';
import { SmtpEmailSender } from './smtp-email.sender';
import { TwilioSmsSender } from './twilio-sms.sender';

/** The sender of each channel, chosen once at boot. */
export class CodeSenders {
  constructor(private readonly byChannel: Record<CodeChannel, CodeSender>) {}

  for(channel: CodeChannel): CodeSender {
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
 * is passed in: it lives with the 2FA persistence, not here.
 */
export function createCodeSenders(
  settings: DeliverySettings,
  clock: Clock,
  outbox: () => CodeSender,
  fetchImpl: typeof fetch = fetch,
): CodeSenders {
  const sms =
    settings.smsProvider === 'twilio' && settings.twilio
      ? new TwilioSmsSender(settings.twilio, fetchImpl)
      : outbox();
  const email =
    settings.emailProvider === 'smtp' && settings.smtp
      ? new SmtpEmailSender(settings.smtp, clock)
      : outbox();
  return new CodeSenders({ sms, email });
}
