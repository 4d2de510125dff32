import { ConfigError, Environment } from '@app/platform';
import { loadSmsAntiFraudSettings } from './sms-anti-fraud-settings';

describe('SMS anti-fraud settings', () => {
  it('defaults: 5 per user and per number in 10 minutes, 60 s apart, 3 accounts per number a day', () => {
    expect(loadSmsAntiFraudSettings(new Environment({}))).toMatchObject({
      perUserLimit: 5,
      perDestinationLimit: 5,
      windowMs: 600_000,
      minIntervalMs: 60_000,
      accountsPerNumber: 3,
      accountWindowMs: 86_400_000,
      blockedPrefixes: [],
      blockedCountries: [],
    });
  });

  it('reads every threshold and the block lists', () => {
    const settings = loadSmsAntiFraudSettings(
      new Environment({
        SMS_LIMIT_PER_USER: '2',
        SMS_LIMIT_PER_NUMBER: '3',
        SMS_LIMIT_WINDOW_SECONDS: '60',
        SMS_MIN_INTERVAL_SECONDS: '0',
        SMS_ACCOUNTS_PER_NUMBER: '1',
        SMS_ACCOUNTS_PER_NUMBER_WINDOW_SECONDS: '3600',
        SMS_BLOCKED_PREFIXES: '+882, +883',
        SMS_BLOCKED_COUNTRIES: 'so,XK',
      }),
    );
    expect(settings).toMatchObject({
      perUserLimit: 2,
      perDestinationLimit: 3,
      windowMs: 60_000,
      minIntervalMs: 0,
      accountsPerNumber: 1,
      accountWindowMs: 3_600_000,
      blockedPrefixes: ['+882', '+883'],
      blockedCountries: ['SO', 'XK'],
    });
  });

  it('names every malformed value at once', () => {
    let message = '';
    try {
      loadSmsAntiFraudSettings(
        new Environment({
          SMS_LIMIT_PER_USER: '0',
          SMS_BLOCKED_PREFIXES: '882',
          SMS_BLOCKED_COUNTRIES: 'Somalia',
        }),
      );
    } catch (error) {
      message = (error as ConfigError).message;
    }
    expect(message).toContain('SMS_LIMIT_PER_USER');
    expect(message).toContain('SMS_BLOCKED_PREFIXES');
    expect(message).toContain('SMS_BLOCKED_COUNTRIES');
  });
});
