import { VolumesError } from './errors';

export const LISTING_STATUSES = ['listed', 'unlisted'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** A volume offered on the marketplace by a host. */
export interface VolumeListing {
  readonly id: number;
  readonly ownerId: number;
  /** The team that holds it (docs/teams.md "Ownership"), or null: its owner's own. */
  readonly teamId?: number | null;
  readonly machineId: number;
  readonly sizeGb: number;
  /** Exact decimal text (money is never a float). */
  readonly pricePerGbMonth: string;
  readonly status: ListingStatus;
  readonly activeRentals: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly unlistedAt: Date | null;
}

/** Largest id PostgreSQL's integer column can hold; anything above cannot name a listing. */
export const MAX_LISTING_ID = 2_147_483_647;

export const UNLIST_MESSAGES = {
  notFound: 'Volume listing does not exist',
  active: 'Unable to delete active volume listing',
} as const;

export type UnlistOutcome = 'unlisted' | 'already_unlisted';

export interface UnlistDecision {
  outcome: UnlistOutcome;
  previousStatus: ListingStatus;
}

/**
 * The listed -> unlisted transition. Someone else's listing is reported exactly like a
 * missing one, so the answer never reveals which ids exist. Unlisting twice succeeds
 * (the client may retry a POST whose answer it lost), and a listing whose volume is still
 * rented cannot be withdrawn from under its renters. In a team's context the team's
 * listings are the caller's; in the personal context, the user's own outside any team.
 */
export function decideUnlist(
  listing: VolumeListing | null,
  callerUserId: number,
  callerTeamId: number | null = null,
): UnlistDecision {
  if (!listing || !heldIn(listing, callerUserId, callerTeamId)) {
    throw new VolumesError('volume_listing_not_found', UNLIST_MESSAGES.notFound);
  }
  if (listing.status === 'unlisted')
    return { outcome: 'already_unlisted', previousStatus: 'unlisted' };
  if (listing.activeRentals > 0) {
    throw new VolumesError('volume_listing_active', UNLIST_MESSAGES.active);
  }
  return { outcome: 'unlisted', previousStatus: 'listed' };
}

function heldIn(listing: VolumeListing, userId: number, teamId: number | null): boolean {
  if (teamId !== null) return listing.teamId === teamId;
  return listing.ownerId === userId && (listing.teamId ?? null) === null;
}
