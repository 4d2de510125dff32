import { RequestOrigin } from '@app/platform';

export type TeamChangeKind =
  | 'team_created'
  | 'team_destroyed'
  | 'team_member_invited'
  | 'team_member_joined'
  | 'team_member_removed'
  | 'team_member_role_changed'
  | 'team_role_created'
  | 'team_role_updated'
  | 'team_role_removed'
  | 'team_policy_changed';

/** One membership, role or policy change of a team, as its history and the member's keep it. */
export interface TeamChange {
  /** null once the team is gone (its destruction). */
  teamId: number | null;
  actorUserId: number;
  /** The member the change is about (mailed), or null for a change of the team alone. */
  subjectUserId: number | null;
  kind: TeamChangeKind;
  details: Record<string, string | number | null>;
  origin: RequestOrigin;
}

/**
 * Hears about team changes, inside the unit of work of the change, to record them as
 * security events of the team and of the member and mail the member affected.
 */
export abstract class TeamAudit {
  abstract teamChanged(change: TeamChange): Promise<void>;
}
