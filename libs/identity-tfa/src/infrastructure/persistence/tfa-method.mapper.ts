import { TfaMethod, TfaMethodType } from '../../domain/tfa-method';

export interface TfaMethodRow {
  id: number;
  user_id: number;
  method: TfaMethodType;
  label: string;
  phone_number: string | null;
  totp_secret_ciphertext: string | null;
  is_primary: boolean;
  last_totp_step: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

export function toTfaMethod(row: TfaMethodRow): TfaMethod {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.method,
    label: row.label,
    phoneNumber: row.phone_number,
    totpSecretCiphertext: row.totp_secret_ciphertext,
    isPrimary: row.is_primary,
    // bigint arrives as a string; time steps fit easily in a double.
    lastTotpStep: row.last_totp_step === null ? null : Number(row.last_totp_step),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}
