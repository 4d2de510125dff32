import { VolumesError } from '../domain/errors';

/** The public client shows these messages as they are. */
export const LISTING_ID_MESSAGES = {
  missing: 'You must pass in `id` in the body of the request',
  invalid: '`id` must be a positive integer',
} as const;

/**
 * The listing id from the request body. The public client sends a JSON integer; strings,
 * fractions, zero and negatives are refused rather than guessed at.
 */
export function parseListingId(raw: unknown): number {
  if (raw === undefined || raw === null) {
    throw new VolumesError('volume_id_missing', LISTING_ID_MESSAGES.missing);
  }
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1) {
    throw new VolumesError('volume_id_invalid', LISTING_ID_MESSAGES.invalid);
  }
  return raw;
}
