import { PermissionDocumentJson, permissionsToJson } from '@app/platform';
import { Transactional } from '@app/platform/testing';
import { TeamInvitation, TeamStore } from '../application/ports/team-store.port';
import { DEFAULT_TEAM_ROLES, rolePermissions, Team, TeamMember, TeamRole } from '../domain/team';
import { InMemoryCredentialRepository } from './in-memory-credentials';
import { InMemoryUserRepository } from './in-memory-users';

interface StoredMember {
  teamId: number;
  userId: number;
  roleId: number | null;
  joinedAt: Date;
}

interface StoredInvitation {
  id: number;
  teamId: number;
  email: string;
  roleId: number;
  tokenHash: string;
  tokenCiphertext: string;
  invitedBy: number | null;
  createdAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  outcome: 'accepted' | 'declined' | 'revoked' | 'replaced' | null;
}

interface State {
  teams: Map<number, Team>;
  roles: TeamRole[];
  members: StoredMember[];
  invitations: StoredInvitation[];
  sequence: number;
}

/** Credit as the numeric(16, 4) column reads back: exact, 4 decimals. */
const SCALE = 10_000n;
const units = (amount: string | number): bigint => {
  const [whole, fraction = ''] = String(amount).split('.');
  const negative = whole.startsWith('-');
  const value =
    BigInt(whole.replace('-', '') || '0') * SCALE + BigInt(fraction.padEnd(4, '0').slice(0, 4));
  return negative ? -value : value;
};
const credit = (value: bigint): string =>
  `${value / SCALE}.${(value % SCALE).toString().padStart(4, '0')}`;

/** A role's document as the database gives it back: in the model's order. */
const stored = (permissions: PermissionDocumentJson | null): PermissionDocumentJson | null =>
  permissions === null ? null : permissionsToJson(rolePermissions({ permissions }));

/**
 * Teams in memory, over the users and credentials of the kit's fakes (a member's email and
 * name, a user's credit, the keys and sessions a removal ends): the fake the team use-case
 * specs run on, held to PostgresTeamStore's answers by testing/team-store.contract.ts.
 * Join it to a SnapshotUnitOfWork to have a failed unit of work take its writes back.
 */
export class InMemoryTeamStore extends TeamStore implements Transactional {
  private state: State = {
    teams: new Map(),
    roles: [],
    members: [],
    invitations: [],
    sequence: 1_000_000,
  };
  /** Teams holding resources of other contexts (groups, listings, contracts): not destroyed. */
  readonly resources = new Set<number>();

  constructor(
    private readonly users: InMemoryUserRepository,
    private readonly credentials: InMemoryCredentialRepository,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
  }

  snapshot(): () => void {
    const saved = structuredClone(this.state);
    const credits = [...this.users.rows].map(([id, row]) => [id, row.user.credit] as const);
    return () => {
      this.state = saved;
      for (const [id, value] of credits) {
        const row = this.users.rows.get(id);
        if (row) row.user = { ...row.user, credit: value };
      }
    };
  }

  private nextId(): number {
    return this.state.sequence++;
  }

  async create(name: string, ownerUserId: number): Promise<{ team: Team; roles: TeamRole[] }> {
    const team: Team = {
      id: this.nextId(),
      name,
      credit: credit(0n),
      requireTfa: false,
      createdAt: this.now(),
    };
    this.state.teams.set(team.id, team);
    const roles = DEFAULT_TEAM_ROLES.map((role) =>
      this.addRole(team.id, role.name, role.permissions, true),
    );
    const owner = roles.find((role) => role.permissions === null)!;
    this.state.members.push({
      teamId: team.id,
      userId: ownerUserId,
      roleId: owner.id,
      joinedAt: this.now(),
    });
    return { team: { ...team }, roles: roles.map((role) => ({ ...role })) };
  }

  private addRole(
    teamId: number,
    name: string,
    permissions: PermissionDocumentJson | null,
    isDefault: boolean,
  ): TeamRole {
    const role: TeamRole = {
      id: this.nextId(),
      teamId,
      name,
      permissions: stored(permissions),
      isDefault,
    };
    this.state.roles.push(role);
    return role;
  }

  async find(teamId: number): Promise<Team | null> {
    const team = this.state.teams.get(teamId);
    return team ? { ...team } : null;
  }

  async lock(teamId: number): Promise<Team | null> {
    return this.find(teamId);
  }

  async setRequireTfa(teamId: number, requireTfa: boolean): Promise<void> {
    const team = this.state.teams.get(teamId);
    if (team) team.requireTfa = requireTfa;
  }

  async destroy(teamId: number): Promise<boolean> {
    if (this.resources.has(teamId)) return false;
    this.state.teams.delete(teamId);
    this.state.roles = this.state.roles.filter((role) => role.teamId !== teamId);
    this.state.members = this.state.members.filter((member) => member.teamId !== teamId);
    this.state.invitations = this.state.invitations.filter(
      (invitation) => invitation.teamId !== teamId,
    );
    // The team's keys and sessions go with it (ON DELETE CASCADE).
    for (let i = this.credentials.rows.length - 1; i >= 0; i -= 1)
      if (this.credentials.rows[i].teamId === teamId) this.credentials.rows.splice(i, 1);
    return true;
  }

  async transferCredit(userId: number, teamId: number, amount: string): Promise<boolean> {
    const row = this.users.rows.get(userId);
    const team = this.state.teams.get(teamId);
    if (!row || !team || units(row.user.credit) < units(amount)) return false;
    row.user = { ...row.user, credit: Number(credit(units(row.user.credit) - units(amount))) };
    team.credit = credit(units(team.credit) + units(amount));
    return true;
  }

  async moveCredentialToTeam(
    kind: 'api_key' | 'session',
    credentialId: number,
    teamId: number,
  ): Promise<{
    wasMain: boolean;
    permissions: PermissionDocumentJson | null;
    keyParams: Record<string, unknown> | null;
    expiresAt: Date | null;
  }> {
    const row = this.credentials.rows.find(
      (found) => found.kind === kind && found.id === credentialId,
    );
    if (!row) return { wasMain: false, permissions: null, keyParams: null, expiresAt: null };
    row.teamId = teamId;
    if (kind === 'session')
      return { wasMain: false, permissions: null, keyParams: null, expiresAt: null };
    const wasMain = row.main;
    row.main = false;
    return {
      wasMain,
      permissions: row.permissions,
      keyParams: row.keyParams as Record<string, unknown> | null,
      expiresAt: row.expiresAt,
    };
  }

  private present(member: StoredMember): TeamMember | null {
    const user = this.users.rows.get(member.userId)?.user;
    if (!user) return null;
    const role = this.state.roles.find((found) => found.id === member.roleId);
    return {
      userId: member.userId,
      email: user.email,
      fullName: user.fullName,
      username: user.username,
      roleId: member.roleId,
      roleName: role?.name ?? null,
      joinedAt: member.joinedAt,
    };
  }

  async members(teamId: number): Promise<TeamMember[]> {
    return this.state.members
      .filter((member) => member.teamId === teamId)
      .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || a.userId - b.userId)
      .flatMap((member) => this.present(member) ?? []);
  }

  async member(teamId: number, userId: number): Promise<TeamMember | null> {
    const found = this.state.members.find(
      (member) => member.teamId === teamId && member.userId === userId,
    );
    return found ? this.present(found) : null;
  }

  async addMember(teamId: number, userId: number, roleId: number): Promise<boolean> {
    if (this.state.members.some((member) => member.teamId === teamId && member.userId === userId))
      return false;
    this.state.members.push({ teamId, userId, roleId, joinedAt: this.now() });
    return true;
  }

  async setMemberRole(teamId: number, userId: number, roleId: number): Promise<void> {
    const found = this.state.members.find(
      (member) => member.teamId === teamId && member.userId === userId,
    );
    if (found) found.roleId = roleId;
  }

  async removeMember(teamId: number, userId: number, at: Date): Promise<boolean> {
    const before = this.state.members.length;
    this.state.members = this.state.members.filter(
      (member) => !(member.teamId === teamId && member.userId === userId),
    );
    if (this.state.members.length === before) return false;
    for (const row of this.credentials.rows)
      if (row.teamId === teamId && row.userId === userId && row.revokedAt === null)
        row.revokedAt = at;
    return true;
  }

  async countWithRole(teamId: number, roleId: number): Promise<number> {
    return (await this.userIdsWithRole(teamId, roleId)).length;
  }

  async userIdsWithRole(teamId: number, roleId: number): Promise<number[]> {
    return this.state.members
      .filter((member) => member.teamId === teamId && member.roleId === roleId)
      .map((member) => member.userId);
  }

  async roles(teamId: number): Promise<TeamRole[]> {
    return this.state.roles
      .filter((role) => role.teamId === teamId)
      .sort((a, b) => a.id - b.id)
      .map((role) => ({ ...role }));
  }

  async roleByName(teamId: number, name: string): Promise<TeamRole | null> {
    const found = this.state.roles.find(
      (role) => role.teamId === teamId && role.name.toLowerCase() === name.toLowerCase(),
    );
    return found ? { ...found } : null;
  }

  async roleById(teamId: number, roleId: number): Promise<TeamRole | null> {
    const found = this.state.roles.find((role) => role.teamId === teamId && role.id === roleId);
    return found ? { ...found } : null;
  }

  async insertRole(
    teamId: number,
    name: string,
    permissions: PermissionDocumentJson | null,
  ): Promise<TeamRole | null> {
    if (await this.roleByName(teamId, name)) return null;
    return { ...this.addRole(teamId, name, permissions, false) };
  }

  async updateRole(updated: TeamRole): Promise<boolean> {
    const clash = this.state.roles.some(
      (role) =>
        role.teamId === updated.teamId &&
        role.id !== updated.id &&
        role.name.toLowerCase() === updated.name.toLowerCase(),
    );
    if (clash) return false;
    const found = this.state.roles.find((role) => role.id === updated.id);
    if (found) {
      found.name = updated.name;
      found.permissions = stored(updated.permissions);
    }
    return true;
  }

  async deleteRole(teamId: number, roleId: number): Promise<void> {
    this.state.roles = this.state.roles.filter(
      (role) => !(role.teamId === teamId && role.id === roleId),
    );
  }

  async invite(invitation: {
    teamId: number;
    email: string;
    roleId: number;
    tokenHash: string;
    tokenCiphertext: (invitationId: number) => string;
    invitedBy: number;
    expiresAt: Date;
  }): Promise<number> {
    const at = this.now();
    for (const earlier of this.state.invitations) {
      if (
        earlier.teamId === invitation.teamId &&
        earlier.email.toLowerCase() === invitation.email.toLowerCase() &&
        earlier.endedAt === null
      ) {
        earlier.endedAt = at;
        earlier.outcome = 'replaced';
      }
    }
    const id = this.nextId();
    this.state.invitations.push({
      id,
      teamId: invitation.teamId,
      email: invitation.email,
      roleId: invitation.roleId,
      tokenHash: invitation.tokenHash,
      tokenCiphertext: invitation.tokenCiphertext(id),
      invitedBy: invitation.invitedBy,
      createdAt: at,
      expiresAt: invitation.expiresAt,
      endedAt: null,
      outcome: null,
    });
    return id;
  }

  private pending(now: Date, where: (invitation: StoredInvitation) => boolean): StoredInvitation[] {
    return this.state.invitations
      .filter(
        (invitation) =>
          invitation.endedAt === null && invitation.expiresAt.getTime() > now.getTime(),
      )
      .filter(where)
      .sort((a, b) => a.id - b.id);
  }

  private presentInvitation(stored: StoredInvitation): TeamInvitation {
    return {
      id: stored.id,
      teamId: stored.teamId,
      teamName: this.state.teams.get(stored.teamId)?.name ?? '',
      email: stored.email,
      roleId: stored.roleId,
      roleName: this.state.roles.find((role) => role.id === stored.roleId)?.name ?? '',
      invitedBy: stored.invitedBy,
      createdAt: stored.createdAt,
      expiresAt: stored.expiresAt,
    };
  }

  async letterOf(
    invitationId: number,
    now: Date,
  ): Promise<{ invitation: TeamInvitation; tokenCiphertext: string } | null> {
    const [found] = this.pending(now, (invitation) => invitation.id === invitationId);
    return found
      ? { invitation: this.presentInvitation(found), tokenCiphertext: found.tokenCiphertext }
      : null;
  }

  async pendingInvitations(teamId: number, now: Date): Promise<TeamInvitation[]> {
    return this.pending(now, (invitation) => invitation.teamId === teamId).map((found) =>
      this.presentInvitation(found),
    );
  }

  async invitationsFor(email: string, now: Date): Promise<TeamInvitation[]> {
    return this.pending(
      now,
      (invitation) => invitation.email.toLowerCase() === email.toLowerCase(),
    ).map((found) => this.presentInvitation(found));
  }

  async invitationByToken(tokenHashes: string[], now: Date): Promise<TeamInvitation | null> {
    const [found] = this.pending(now, (invitation) => tokenHashes.includes(invitation.tokenHash));
    return found ? this.presentInvitation(found) : null;
  }

  async invitationById(invitationId: number, now: Date): Promise<TeamInvitation | null> {
    const [found] = this.pending(now, (invitation) => invitation.id === invitationId);
    return found ? this.presentInvitation(found) : null;
  }

  async endInvitation(
    invitationId: number,
    outcome: 'accepted' | 'declined' | 'revoked',
    at: Date,
  ): Promise<boolean> {
    const found = this.state.invitations.find((invitation) => invitation.id === invitationId);
    if (!found || found.endedAt !== null) return false;
    found.endedAt = at;
    found.outcome = outcome;
    return true;
  }
}
