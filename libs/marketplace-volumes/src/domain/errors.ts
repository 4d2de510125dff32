import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

/**
 * Unlist failures are all 400s without an `error` field: the spec shows the missing-id
 * body as `{success, msg}` and the other failures follow the same shape.
 */
export const VOLUMES_ERRORS = defineErrors({
  volume_id_missing: { status: 400, wireCode: null },
  volume_id_invalid: { status: 400, wireCode: null },
  volume_listing_not_found: { status: 400, wireCode: null },
  volume_listing_active: { status: 400, wireCode: null },
});

export type VolumesErrorCode = keyof typeof VOLUMES_ERRORS | PlatformErrorCode;

/** The marketplace-volumes context's one error class: `throw new VolumesError(code, message, details?)`. */
export class VolumesError extends DomainError<VolumesErrorCode> {}
