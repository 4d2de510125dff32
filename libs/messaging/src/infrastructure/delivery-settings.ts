import { ConfigReader, Environment } from '@app/platform';
import { SmtpSettings, SmtpTlsMode } from './providers/smtp-email.sender';
import { TwilioSettings } from './providers/twilio-sms.sender';

export const SMS_PROVIDERS = ['outbox', 'twilio'] as const;
export const EMAIL_PROVIDERS = ['outbox', 'smtp'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];
export type EmailProviderName = (typeof EMAIL_PROVIDERS)[number];

/** Provider choice and delivery behaviour, validated at boot. See docs/delivery.md. */
export class DeliverySettings {
  smsProvider: SmsProviderName;
  emailProvider: EmailProviderName;
  /** Set when smsProvider is twilio. */
  twilio: TwilioSettings | null;
  /** Set when emailProvider is smtp. */
  smtp: SmtpSettings | null;
  /** How long a requester waits for the first delivery attempt of its message (0: not at all). */
  firstAttemptWaitMs: number;
  /** Attempts per send, the first included. */
  maxAttempts: number;
  /** First retry delay; each further retry doubles it. */
  backoffMs: number;
  /** How long a worker holds a job before another worker may take it over (crash recovery). */
  jobLockMs: number;
}

/**
 * Outside production the outbox (a PostgreSQL table) is the default for both channels, so
 * a fresh clone sends nothing anywhere. Production must name real providers: a message parked
 * in a table reaches nobody (a sign-in code there would lock its user out).
 */
export function loadDeliverySettings(env: Environment): DeliverySettings {
  const read = new ConfigReader(env);
  const settings = new DeliverySettings();
  settings.smsProvider = read.oneOf('SMS_PROVIDER', SMS_PROVIDERS, 'outbox');
  settings.emailProvider = read.oneOf('EMAIL_PROVIDER', EMAIL_PROVIDERS, 'outbox');
  if (env.isProduction) {
    if (env.get('SMS_PROVIDER') === undefined || settings.smsProvider === 'outbox')
      read.problem('SMS_PROVIDER must be twilio in production (the outbox is for development)');
    if (env.get('EMAIL_PROVIDER') === undefined || settings.emailProvider === 'outbox')
      read.problem('EMAIL_PROVIDER must be smtp in production (the outbox is for development)');
  }
  settings.twilio = settings.smsProvider === 'twilio' ? readTwilio(read) : null;
  settings.smtp = settings.emailProvider === 'smtp' ? readSmtp(read) : null;
  settings.firstAttemptWaitMs = read.integer('DELIVERY_FIRST_ATTEMPT_WAIT_MS', 3_000, 0, 30_000);
  settings.maxAttempts = read.integer('DELIVERY_MAX_ATTEMPTS', 5, 1, 20);
  settings.backoffMs = read.integer('DELIVERY_BACKOFF_MS', 1_000, 1, 600_000);
  settings.jobLockMs = read.integer('DELIVERY_JOB_LOCK_MS', 30_000, 500, 600_000);
  read.done();
  return settings;
}

function required(read: ConfigReader, name: string, why: string): string {
  const value = read.optionalString(name);
  if (value === undefined) read.problem(`${name} is required ${why}`);
  return value ?? '';
}

function readTwilio(read: ConfigReader): TwilioSettings {
  const why = 'when SMS_PROVIDER=twilio';
  const baseUrl = read.url('TWILIO_API_BASE_URL', 'https://api.twilio.com', ['https:', 'http:']);
  if (read.env.isProduction && !baseUrl.startsWith('https:'))
    read.problem('TWILIO_API_BASE_URL must be an https URL in production');
  const from = read.optionalString('TWILIO_FROM') ?? null;
  const messagingServiceSid = read.optionalString('TWILIO_MESSAGING_SERVICE_SID') ?? null;
  if ((from === null) === (messagingServiceSid === null))
    read.problem(`exactly one of TWILIO_FROM and TWILIO_MESSAGING_SERVICE_SID is required ${why}`);
  return {
    baseUrl,
    accountSid: required(read, 'TWILIO_ACCOUNT_SID', why),
    authToken: required(read, 'TWILIO_AUTH_TOKEN', why),
    from,
    messagingServiceSid,
    timeoutMs: read.integer('TWILIO_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}

function readSmtp(read: ConfigReader): SmtpSettings {
  const why = 'when EMAIL_PROVIDER=smtp';
  const tls = read.oneOf<SmtpTlsMode>('SMTP_TLS', ['implicit', 'starttls', 'none'], 'starttls');
  if (read.env.isProduction && tls === 'none')
    read.problem('SMTP_TLS=none is refused in production: codes would cross the network in clear');
  const user = read.optionalString('SMTP_USER') ?? null;
  const password = read.optionalString('SMTP_PASSWORD') ?? null;
  if ((user === null) !== (password === null))
    read.problem('SMTP_USER and SMTP_PASSWORD go together');
  return {
    host: required(read, 'SMTP_HOST', why),
    port: read.integer('SMTP_PORT', tls === 'implicit' ? 465 : 587, 1, 65535),
    tls,
    user,
    password,
    from: required(read, 'SMTP_FROM', why),
    timeoutMs: read.integer('SMTP_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}
