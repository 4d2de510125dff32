import { ConfigReader, Environment } from '@app/platform';
import { WebhookSettings } from '../../domain/webhook-settings';

/**
 * WEBHOOK_TIMEOUT_MS, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_BACKOFF_MS and WEBHOOK_SWEEP_SECONDS
 * (docs/spend-guards.md "Settings"). The defaults retry a receiver for about an hour
 * (30 s doubling over 7 retries), far longer than messaging's retries of a provider.
 */
export function loadWebhookSettings(env: Environment): WebhookSettings {
  const read = new ConfigReader(env);
  const settings = new WebhookSettings();
  settings.production = env.isProduction;
  settings.timeoutMs = read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  settings.maxAttempts = read.integer('WEBHOOK_MAX_ATTEMPTS', 8, 1, 25);
  settings.backoffMs = read.integer('WEBHOOK_BACKOFF_MS', 30_000, 1, 3_600_000);
  settings.sweepSeconds = read.integer('WEBHOOK_SWEEP_SECONDS', 60, 1, 3600);
  read.done();
  return settings;
}
