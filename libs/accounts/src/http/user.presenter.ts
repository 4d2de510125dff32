import { User } from '../domain/user';
import { UserResponseDto } from './user.response.dto';

/**
 * The user object (id, email, full_name, tfa_status, ...; docs/identity-tfa.md) plus the fields the
 * public client's `show user` table reads. Never a hash or key.
 */
export function presentUser(user: User): UserResponseDto {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    user: user.username,
    full_name: user.fullName,
    fullname: user.fullName,
    email_verified: user.emailVerifiedAt !== null,
    is_admin: user.isAdmin,
    tfa_enabled: user.tfaEnabled,
    tfa_status: user.tfaStatus,
    credit: user.credit,
    balance: user.balance,
    balance_threshold: user.balanceThreshold,
    balance_threshold_enabled: user.balanceThresholdEnabled,
    created_at: Math.floor(user.createdAt.getTime() / 1000),
  };
}
