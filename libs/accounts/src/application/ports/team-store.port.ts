import type { PermissionDocumentJson } from '@app/platform';
import { Team, TeamMember, TeamRole } from '../../domain/team';

export interface TeamInvitation {
  id: number;
  teamId: number;
  teamName: string;
  email: string;
  roleId: number;
  roleName: string;
  invitedBy: number | null;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Teams as their members manage them (docs/teams.md): roles, members, credit and
 * invitations. Every write is called inside a unit of work; `lock` serialises the changes
 * of one team (the last-owner rules read and write under it).
 */
export abstract class TeamStore {
  abstract create(name: string, ownerUserId: number): Promise<{ team: Team; roles: TeamRole[] }>;
  abstract find(teamId: number): Promise<Team | null>;
  /** Locks the team's row until the transaction ends; null when it is gone. */
  abstract lock(teamId: number): Promise<Team | null>;
  abstract setRequireTfa(teamId: number, requireTfa: boolean): Promise<void>;
  /** Deletes the team; false (and nothing deleted) while resources of the team remain. */
  abstract destroy(teamId: number): Promise<boolean>;
  /**
   * Moves `amount` (exact decimal text) of the user's credit to the team, in one statement
   * each side; false (and nothing moved) when the user's credit is less than the amount.
   */
  abstract transferCredit(userId: number, teamId: number, amount: string): Promise<boolean>;
  /**
   * The caller's credential becomes a credential of the team (the public service's
   * create-team). Answers whether an API key was the user's main key (it is no longer).
   */
  abstract moveCredentialToTeam(
    kind: 'api_key' | 'session',
    credentialId: number,
    teamId: number,
  ): Promise<{ wasMain: boolean; permissions: PermissionDocumentJson | null; keyParams: Record<string, unknown> | null; expiresAt: Date | null }>;

  abstract members(teamId: number): Promise<TeamMember[]>;
  abstract member(teamId: number, userId: number): Promise<TeamMember | null>;
  abstract addMember(teamId: number, userId: number, roleId: number): Promise<boolean>;
  abstract setMemberRole(teamId: number, userId: number, roleId: number): Promise<void>;
  /** Removes the member and ends every key and session of theirs in the team. */
  abstract removeMember(teamId: number, userId: number, at: Date): Promise<boolean>;
  abstract countWithRole(teamId: number, roleId: number): Promise<number>;

  abstract roles(teamId: number): Promise<TeamRole[]>;
  abstract roleByName(teamId: number, name: string): Promise<TeamRole | null>;
  abstract roleById(teamId: number, roleId: number): Promise<TeamRole | null>;
  /** null when a role of that name (any case) exists. */
  abstract insertRole(teamId: number, name: string, permissions: PermissionDocumentJson | null): Promise<TeamRole | null>;
  /** false when another role has that name. */
  abstract updateRole(role: TeamRole): Promise<boolean>;
  abstract deleteRole(teamId: number, roleId: number): Promise<void>;
  abstract userIdsWithRole(teamId: number, roleId: number): Promise<number[]>;

  /** Pending invitation of that address to that team becomes `replaced`; the new one is stored. */
  abstract invite(invitation: {
    teamId: number;
    email: string;
    roleId: number;
    tokenHash: string;
    /** Encrypted with the invitation's id as associated data, after the insert. */
    tokenCiphertext: (invitationId: number) => string;
    invitedBy: number;
    expiresAt: Date;
  }): Promise<number>;
  /** A pending invitation and its encrypted token, for its mail; null once it ended. */
  abstract letterOf(invitationId: number, now: Date): Promise<{ invitation: TeamInvitation; tokenCiphertext: string } | null>;
  abstract pendingInvitations(teamId: number, now: Date): Promise<TeamInvitation[]>;
  abstract invitationsFor(email: string, now: Date): Promise<TeamInvitation[]>;
  /** The pending, unexpired invitation the token opens, locked until the transaction ends. */
  abstract invitationByToken(tokenHashes: string[], now: Date): Promise<TeamInvitation | null>;
  abstract invitationById(invitationId: number, now: Date): Promise<TeamInvitation | null>;
  /** Ends a pending invitation; false when it was no longer pending. */
  abstract endInvitation(invitationId: number, outcome: 'accepted' | 'declined' | 'revoked', at: Date): Promise<boolean>;
}
