export type TfaStatus = 'enabled' | 'disabled' | 'legacy';
export const TFA_STATUSES: readonly TfaStatus[] = ['enabled', 'disabled', 'legacy'];

/** An account holder as the rest of the system sees it. Never carries a password hash. */
export interface User {
  id: number;
  email: string;
  username: string | null;
  fullName: string;
  emailVerifiedAt: Date | null;
  isAdmin: boolean;
  /** Phone on the user record: the legacy 2FA number and the default SMS destination. */
  phoneNumber: string | null;
  tfaEnabled: boolean;
  tfaStatus: TfaStatus;
  credit: number;
  balance: number;
  smsFraudFlaggedAt: Date | null;
  createdAt: Date;
}

export function isEmailVerified(user: User): boolean {
  return user.emailVerifiedAt !== null;
}
