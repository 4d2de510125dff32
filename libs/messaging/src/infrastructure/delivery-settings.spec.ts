import { ConfigError, Environment } from '@app/platform';
import { loadDeliverySettings } from './delivery-settings';

function problems(vars: Record<string, string>): string {
  try {
    loadDeliverySettings(new Environment(vars));
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a configuration error');
}

const TWILIO = {
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC0123',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_FROM: '+14155550100',
};
const SMTP = {
  EMAIL_PROVIDER: 'smtp',
  SMTP_HOST: 'smtp.example.com',
  SMTP_FROM: 'GPU Marketplace <no-reply@example.com>',
};

describe('delivery settings', () => {
  it('outside production both channels default to the outbox, with the documented timings', () => {
    const settings = loadDeliverySettings(new Environment({ NODE_ENV: 'development' }));
    expect(settings).toMatchObject({
      smsProvider: 'outbox',
      emailProvider: 'outbox',
      twilio: null,
      smtp: null,
      firstAttemptWaitMs: 3000,
      maxAttempts: 5,
      backoffMs: 1000,
      jobLockMs: 30000,
    });
  });

  it('production refuses the outbox and a missing choice', () => {
    const message = problems({ NODE_ENV: 'production', SMS_PROVIDER: 'outbox' });
    expect(message).toContain('SMS_PROVIDER must be twilio in production');
    expect(message).toContain('EMAIL_PROVIDER must be smtp in production');
  });

  it('production accepts twilio and smtp over https and TLS', () => {
    const settings = loadDeliverySettings(
      new Environment({ NODE_ENV: 'production', ...TWILIO, ...SMTP }),
    );
    expect(settings.twilio).toMatchObject({
      baseUrl: 'https://api.twilio.com',
      accountSid: 'AC0123',
      from: '+14155550100',
      messagingServiceSid: null,
      timeoutMs: 10000,
    });
    expect(settings.smtp).toMatchObject({ host: 'smtp.example.com', port: 587, tls: 'starttls' });
  });

  it('twilio needs its credentials and exactly one sender', () => {
    const message = problems({ SMS_PROVIDER: 'twilio' });
    expect(message).toContain('TWILIO_ACCOUNT_SID is required');
    expect(message).toContain('TWILIO_AUTH_TOKEN is required');
    expect(message).toContain('exactly one of TWILIO_FROM and TWILIO_MESSAGING_SERVICE_SID');
    expect(problems({ ...TWILIO, TWILIO_MESSAGING_SERVICE_SID: 'MG1' })).toContain('exactly one');
  });

  it('smtp needs a host and a From address; implicit TLS defaults to port 465', () => {
    const message = problems({ EMAIL_PROVIDER: 'smtp' });
    expect(message).toContain('SMTP_HOST is required');
    expect(message).toContain('SMTP_FROM is required');
    const settings = loadDeliverySettings(new Environment({ ...SMTP, SMTP_TLS: 'implicit' }));
    expect(settings.smtp?.port).toBe(465);
  });

  it('production refuses plain SMTP and a plain-http Twilio endpoint', () => {
    const message = problems({
      NODE_ENV: 'production',
      ...TWILIO,
      TWILIO_API_BASE_URL: 'http://127.0.0.1:9',
      ...SMTP,
      SMTP_TLS: 'none',
    });
    expect(message).toContain('TWILIO_API_BASE_URL must be an https URL');
    expect(message).toContain('SMTP_TLS=none is refused');
  });

  it('rejects out-of-range timings', () => {
    expect(problems({ DELIVERY_MAX_ATTEMPTS: '0' })).toContain('DELIVERY_MAX_ATTEMPTS');
    expect(problems({ DELIVERY_FIRST_ATTEMPT_WAIT_MS: 'soon' })).toContain(
      'DELIVERY_FIRST_ATTEMPT_WAIT_MS',
    );
  });
});
