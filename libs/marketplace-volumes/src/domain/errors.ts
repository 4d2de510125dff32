import { defineErrors, DomainError, PlatformErrorCode } from '@app/platform';

/**
 * Unlist failures are all 400s. The missing-id body is `{success, msg}`, as the public
 * client knows it; the others also carry an `error` code (docs/marketplace.md "Statuses and
 * codes"), so a script or the command line can tell them apart without reading the message.
 */
export const VOLUMES_ERRORS = defineErrors({
  volume_id_missing: { status: 400, wireCode: null },
  volume_id_invalid: { status: 400, wireCode: 'bad_request' },
  volume_listing_not_found: { status: 400 },
  volume_listing_active: { status: 400 },
});

export type VolumesErrorCode = keyof typeof VOLUMES_ERRORS | PlatformErrorCode;

/** The marketplace-volumes context's one error class: `throw new VolumesError(code, message, details?)`. */
export class VolumesError extends DomainError<VolumesErrorCode> {}
