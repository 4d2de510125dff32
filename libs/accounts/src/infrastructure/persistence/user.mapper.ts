import { NewUser } from '../../application/ports/user.repository.port';
import { TfaStatus, User } from '../../domain/user';

/** A row of users as the pg driver returns it (numeric columns are decimal text). */
export interface UserRow {
  id: number;
  email: string;
  username: string | null;
  full_name: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  is_admin: boolean;
  phone_number: string | null;
  tfa_enabled: boolean;
  tfa_status: TfaStatus;
  credit: string | null;
  balance: string | null;
  sms_fraud_flagged_at: Date | null;
  balance_threshold: string;
  balance_threshold_enabled: boolean;
  created_at: Date;
}

/** Every column of a User, and the hash (read only where a password is checked). */
export const USER_COLUMNS = `id, email, username, full_name, email_verified_at, is_admin,
  phone_number, tfa_enabled, tfa_status, credit, balance, sms_fraud_flagged_at,
  balance_threshold, balance_threshold_enabled, created_at`;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    fullName: row.full_name,
    emailVerifiedAt: row.email_verified_at,
    isAdmin: row.is_admin,
    phoneNumber: row.phone_number,
    tfaEnabled: row.tfa_enabled,
    tfaStatus: row.tfa_status,
    credit: row.credit === null ? 0 : Number(row.credit),
    balance: row.balance === null ? 0 : Number(row.balance),
    smsFraudFlaggedAt: row.sms_fraud_flagged_at,
    balanceThreshold: Number(row.balance_threshold),
    balanceThresholdEnabled: row.balance_threshold_enabled,
    createdAt: row.created_at,
  };
}

/**
 * The written columns of a new or replaced user, in the order of USER_WRITE_COLUMNS. The
 * balance starts at the credit; 2FA is enabled for any status but `disabled`.
 */
export const USER_WRITE_COLUMNS = `email, username, full_name, password_hash, email_verified_at,
  is_admin, phone_number, tfa_enabled, tfa_status, credit, balance`;

export function userWriteParams(user: NewUser, now: Date): unknown[] {
  const tfaStatus = user.tfaStatus ?? 'disabled';
  return [
    user.email,
    user.username ?? null,
    user.fullName ?? '',
    user.passwordHash ?? null,
    user.emailVerified ? now : null,
    user.isAdmin ?? false,
    user.phoneNumber ?? null,
    tfaStatus !== 'disabled',
    tfaStatus,
    user.credit ?? 0,
    user.credit ?? 0,
  ];
}
