import { ConfigReader, Environment } from '@app/platform';
import { AccountSecuritySettings } from '../domain/account-security-settings';

/**
 * CODE_MESSAGE_BRAND: the product's name in notices (the 2FA codes read it too);
 * TFA_TRUSTED_DEVICE_DAYS, TFA_SECURITY_EVENT_RETENTION_DAYS and TFA_NOTICE_RETRY_SECONDS
 * (docs/identity-tfa.md "Configuration"), names kept from when the 2FA context held them.
 */
export function loadAccountSecuritySettings(env: Environment): AccountSecuritySettings {
  const read = new ConfigReader(env);
  const settings = new AccountSecuritySettings();
  settings.messageBrand = read.string('CODE_MESSAGE_BRAND', 'GPU Marketplace');
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
