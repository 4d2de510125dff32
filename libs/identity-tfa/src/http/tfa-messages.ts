/**
 * The `msg` texts of the 2FA success bodies. The public client shows them, and matches
 * some exactly (resend's msg is required, "Authorization successful." ends `tfa auth-new`),
 * so the response DTOs document them from here too.
 */
export const MSG = {
  smsSent: '2FA Sent',
  emailSent: '2FA code sent to your email address.',
  resent: 'A 6-digit code has been sent to your phone',
  authorized: 'Authorization successful.',
  removed: '2FA method removed',
  disabled: '2FA Successfully Disabled',
  smsAdded: 'SMS 2FA method added successfully',
  totpAdded: 'TOTP 2FA method added successfully',
  updated: '2FA method updated successfully',
  regenerated: 'Backup codes regenerated successfully',
} as const;
