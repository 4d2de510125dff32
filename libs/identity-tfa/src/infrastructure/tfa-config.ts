import { ConfigReader, Environment } from '@app/platform';
import { TfaSettings } from '../domain/tfa-policy';

/** TFA_TOTP_ISSUER: name shown in authenticator apps. Providers: see delivery-settings.ts. */
export function loadTfaSettings(env: Environment): TfaSettings {
  const read = new ConfigReader(env);
  const settings = new TfaSettings();
  settings.totpIssuer = read.string('TFA_TOTP_ISSUER', 'GPU Marketplace');
  read.done();
  return settings;
}
