import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const AUTOSCALING_ERRORS = defineErrors({
  invalid_args: { status: 400 },
  endpoint_group_not_found: { status: 404, wireCode: 'not_found' },
});

export type AutoscalingErrorCode = keyof typeof AUTOSCALING_ERRORS | PlatformErrorCode;

/** The autoscaling context's one error class: `throw new AutoscalingError(code, message, details?)`. */
export class AutoscalingError extends DomainError<AutoscalingErrorCode> {}
