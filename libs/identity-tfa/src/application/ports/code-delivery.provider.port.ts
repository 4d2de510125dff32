export type DeliveryChannel = 'sms' | 'email';

export interface OutgoingCode {
  channel: DeliveryChannel;
  /** E.164 phone or email address. */
  to: string;
  subject: string | null;
  text: string;
  /** For providers with their own limits and fraud checks (per user, per purpose). */
  userId: number;
  purpose: string;
}

/**
 * One adapter per provider (outbox now; SMS and email gateways later), chosen by config.
 * Adapters throw DomainError with the spec's codes (twilio_error, twilio_rate_limited,
 * sms_blocked_number, ...) for failures a caller can act on.
 */
export abstract class CodeDeliveryProvider {
  abstract readonly name: string;
  abstract send(message: OutgoingCode): Promise<{ providerMessageId: string }>;
}
