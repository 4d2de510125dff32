import { ConfigReader, Environment } from '@app/platform';
import { TfaSettings } from '../application/tfa-settings';

/**
 * TFA_TOTP_ISSUER: name shown in authenticator apps.
 * CODE_DELIVERY_PROVIDER: `outbox` (development default). Production must name its
 * provider explicitly, so codes are never parked in a table by accident.
 */
export function loadTfaSettings(env: Environment): TfaSettings {
  const read = new ConfigReader(env);
  const settings = new TfaSettings();
  settings.totpIssuer = read.string('TFA_TOTP_ISSUER', 'GPU Marketplace');
  if (env.isProduction && env.get('CODE_DELIVERY_PROVIDER') === undefined)
    read.problem('CODE_DELIVERY_PROVIDER is required in production (available: outbox)');
  settings.deliveryProvider = read.oneOf('CODE_DELIVERY_PROVIDER', ['outbox'] as const, 'outbox');
  read.done();
  return settings;
}
