import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

export const SPEND_GUARDS_ERRORS = defineErrors({
  budget_name_invalid: { status: 400 },
  budget_amount_invalid: { status: 400 },
  budget_period_invalid: { status: 400 },
  budget_thresholds_invalid: { status: 400 },
  budget_scope_invalid: { status: 400 },
  budget_limit_reached: { status: 400 },
  budget_not_found: { status: 404, wireCode: 'not_found' },
  webhook_url_invalid: { status: 400 },
  webhook_events_invalid: { status: 400 },
  webhook_description_invalid: { status: 400 },
  webhook_limit_reached: { status: 400 },
  webhook_not_found: { status: 404, wireCode: 'not_found' },
  webhook_delivery_not_found: { status: 404, wireCode: 'not_found' },
});

export type SpendGuardsErrorCode = keyof typeof SPEND_GUARDS_ERRORS | PlatformErrorCode;

/** The spend guards context's one error class: `throw new SpendGuardsError(code, message, details?)`. */
export class SpendGuardsError extends DomainError<SpendGuardsErrorCode> {}
