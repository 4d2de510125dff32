/** The `msg` texts of the account-security success bodies, documented by the DTOs too. */
export const SECURITY_MSG = {
  deviceRevoked: 'Trusted device revoked.',
} as const;
