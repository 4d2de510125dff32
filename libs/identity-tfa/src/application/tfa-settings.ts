/** Settings of the 2FA context, loaded and validated at boot (infrastructure/tfa-config.ts). */
export class TfaSettings {
  totpIssuer: string;
}
