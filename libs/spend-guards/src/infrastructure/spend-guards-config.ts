import { ConfigReader, Environment } from '@app/platform';
import { BudgetSettings } from '../domain/spend-guards-settings';

/**
 * CODE_MESSAGE_BRAND: the product's name in alerts (as in notices); BUDGET_SWEEP_SECONDS
 * and BUDGET_ALERT_RETRY_SECONDS (docs/spend-guards.md "Settings").
 */
export function loadBudgetSettings(env: Environment): BudgetSettings {
  const read = new ConfigReader(env);
  const settings = new BudgetSettings();
  settings.messageBrand = read.string('CODE_MESSAGE_BRAND', settings.messageBrand);
  settings.sweepSeconds = read.integer('BUDGET_SWEEP_SECONDS', settings.sweepSeconds, 1, 86_400);
  settings.alertRetrySeconds = read.integer(
    'BUDGET_ALERT_RETRY_SECONDS',
    settings.alertRetrySeconds,
    1,
    3600,
  );
  read.done();
  return settings;
}
