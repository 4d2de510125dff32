import { TfaStatus, User } from '../../domain/user';
import { UserOrmEntity } from './user.orm-entity';

export function toUser(row: UserOrmEntity): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    fullName: row.fullName,
    emailVerifiedAt: row.emailVerifiedAt,
    isAdmin: row.isAdmin,
    phoneNumber: row.phoneNumber,
    tfaEnabled: row.tfaEnabled,
    tfaStatus: row.tfaStatus as TfaStatus,
    credit: row.credit,
    balance: row.balance,
    smsFraudFlaggedAt: row.smsFraudFlaggedAt,
    createdAt: row.createdAt,
  };
}
