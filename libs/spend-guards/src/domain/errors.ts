import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const SPEND_GUARDS_ERRORS = defineErrors({
  budget_name_invalid: { status: 400 },
});

export type SpendGuardsErrorCode = keyof typeof SPEND_GUARDS_ERRORS | PlatformErrorCode;

/** The spend guards context's one error class: `throw new SpendGuardsError(code, message, details?)`. */
export class SpendGuardsError extends DomainError<SpendGuardsErrorCode> {}
