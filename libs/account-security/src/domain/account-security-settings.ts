/**
 * The deployment's account-security settings, loaded and validated at boot
 * (infrastructure/account-security-config.ts; docs/identity-tfa.md "Configuration").
 */
export class AccountSecuritySettings {
  /** CODE_MESSAGE_BRAND: the product's name in the wording of notices. */
  messageBrand: string;
  /** TFA_TRUSTED_DEVICE_DAYS: how long a remembered device skips the second factor. */
  trustedDeviceDays: number;
  /** TFA_SECURITY_EVENT_RETENTION_DAYS: the prune command's default age. */
  securityEventRetentionDays: number;
  /**
   * TFA_NOTICE_RETRY_SECONDS: how often the worker looks for notices still unsent, and how
   * old an unsent one must be before it is queued again.
   */
  noticeRetrySeconds: number;
}
