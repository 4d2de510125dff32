import { ErrorTable } from '@app/platform';

/**
 * Unlist failures are all 400s without an `error` field: the spec shows the missing-id
 * body as `{success, msg}` and the other failures follow the same shape.
 */
export const VOLUMES_ERRORS: ErrorTable = {
  volume_id_missing: { status: 400, wireCode: null },
  volume_id_invalid: { status: 400, wireCode: null },
  volume_listing_not_found: { status: 400, wireCode: null },
  volume_listing_active: { status: 400, wireCode: null },
};
