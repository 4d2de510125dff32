import { ConfigReader, Environment } from '@app/platform';
import { TfaSettings } from '../domain/tfa-policy';

/**
 * TFA_TOTP_ISSUER: name shown in authenticator apps; CODE_MESSAGE_BRAND: the product's name
 * in codes (docs/identity-tfa.md "Configuration"). The trusted devices', events' and
 * notices' settings are account security's; providers: messaging's delivery-settings.ts.
 */
export function loadTfaSettings(env: Environment): TfaSettings {
  const read = new ConfigReader(env);
  const settings = new TfaSettings();
  settings.totpIssuer = read.string('TFA_TOTP_ISSUER', 'GPU Marketplace');
  settings.messageBrand = read.string('CODE_MESSAGE_BRAND', 'GPU Marketplace');
  read.done();
  return settings;
}
