import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const AUDIT_LOG_ERRORS = defineErrors({
  invalid_token: { status: 400 },
});

export type AuditLogErrorCode = keyof typeof AUDIT_LOG_ERRORS | PlatformErrorCode;

/** The audit-log context's one error class. */
export class AuditLogError extends DomainError<AuditLogErrorCode> {}

export const AUDIT_LOG_MESSAGES = {
  invalidToken: 'Invalid pagination token',
} as const;
