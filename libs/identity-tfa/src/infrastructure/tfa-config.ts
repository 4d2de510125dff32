import { ConfigReader, Environment } from '@app/platform';
import { TfaSettings } from '../domain/tfa-policy';

/**
 * TFA_TOTP_ISSUER: name shown in authenticator apps; TFA_TRUSTED_DEVICE_DAYS,
 * TFA_SECURITY_EVENT_RETENTION_DAYS and TFA_NOTICE_RETRY_SECONDS (docs/identity-tfa.md
 * "Configuration"). Providers: see delivery-settings.ts.
 */
export function loadTfaSettings(env: Environment): TfaSettings {
  const read = new ConfigReader(env);
  const settings = new TfaSettings();
  settings.totpIssuer = read.string('TFA_TOTP_ISSUER', 'GPU Marketplace');
  settings.trustedDeviceDays = read.integer('TFA_TRUSTED_DEVICE_DAYS', 30, 1, 365);
  settings.securityEventRetentionDays = read.integer(
    'TFA_SECURITY_EVENT_RETENTION_DAYS',
    400,
    1,
    36_500,
  );
  settings.noticeRetrySeconds = read.integer('TFA_NOTICE_RETRY_SECONDS', 60, 1, 3600);
  read.done();
  return settings;
}
