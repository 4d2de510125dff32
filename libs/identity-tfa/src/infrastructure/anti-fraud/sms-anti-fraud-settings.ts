import { ConfigReader, Environment } from '@app/platform';

/** The SMS-pumping defences' thresholds. Every one is configurable; see docs/delivery.md. */
export class SmsAntiFraudSettings {
  /** SMS per user within windowMs. */
  perUserLimit: number;
  /** SMS per destination number within windowMs. */
  perDestinationLimit: number;
  windowMs: number;
  /** A new (not resent) SMS to a number that got one within this interval is refused. */
  minIntervalMs: number;
  /** Distinct accounts one number may receive codes for within accountWindowMs. */
  accountsPerNumber: number;
  accountWindowMs: number;
  /** E.164 prefixes refused before any send, e.g. +882 (international networks). */
  blockedPrefixes: string[];
  /** ISO 3166-1 alpha-2 regions refused before any send. */
  blockedCountries: string[];
}

function list(read: ConfigReader, name: string, pattern: RegExp, example: string): string[] {
  const raw = read.optionalString(name);
  if (raw === undefined) return [];
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  const bad = items.filter((item) => !pattern.test(item));
  if (bad.length > 0)
    read.problem(`${name} must be a comma-separated list like ${example} (bad: ${bad.join(', ')})`);
  return items.filter((item) => pattern.test(item));
}

export function loadSmsAntiFraudSettings(env: Environment): SmsAntiFraudSettings {
  const read = new ConfigReader(env);
  const settings = new SmsAntiFraudSettings();
  settings.perUserLimit = read.integer('SMS_LIMIT_PER_USER', 5, 1, 10_000);
  settings.perDestinationLimit = read.integer('SMS_LIMIT_PER_NUMBER', 5, 1, 10_000);
  settings.windowMs = read.integer('SMS_LIMIT_WINDOW_SECONDS', 600, 1, 7 * 86_400) * 1000;
  settings.minIntervalMs = read.integer('SMS_MIN_INTERVAL_SECONDS', 60, 0, 86_400) * 1000;
  settings.accountsPerNumber = read.integer('SMS_ACCOUNTS_PER_NUMBER', 3, 1, 10_000);
  settings.accountWindowMs =
    read.integer('SMS_ACCOUNTS_PER_NUMBER_WINDOW_SECONDS', 86_400, 1, 30 * 86_400) * 1000;
  settings.blockedPrefixes = list(read, 'SMS_BLOCKED_PREFIXES', /^\+\d{1,14}$/, '+882,+883');
  settings.blockedCountries = list(read, 'SMS_BLOCKED_COUNTRIES', /^[A-Za-z]{2}$/, 'XK,SO').map(
    (code) => code.toUpperCase(),
  );
  read.done();
  return settings;
}
