import { UnlistOutcome } from '../domain/volume-listing';
import { UnlistVolumeResponseDto } from './unlist-volume.response.dto';

/**
 * The answer to an unlist, the public client prints its `msg`. Unlisting is idempotent, so
 * both outcomes answer alike: the caller cannot tell a first unlist from a repeated one.
 */
export function presentUnlistedVolume(
  listingId: number,
  _outcome: UnlistOutcome,
): UnlistVolumeResponseDto {
  return { success: true, msg: `Unlisted Volume ${listingId}.` };
}
