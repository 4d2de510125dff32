import { Injectable } from '@nestjs/common';
import { PermissionDocumentJson, permissionsToJson, TransactionalEntityManager } from '@app/platform';
import { TeamInvitation, TeamStore } from '../../application/ports/team-store.port';
import { DEFAULT_TEAM_ROLES, rolePermissions, Team, TeamMember, TeamRole } from '../../domain/team';

interface TeamRow {
  id: number;
  name: string;
  credit: string;
  require_tfa: boolean;
  created_at: Date;
}
interface RoleRow {
  id: number;
  team_id: number;
  name: string;
  permissions: PermissionDocumentJson | null;
  is_default: boolean;
}
interface MemberRow {
  user_id: number;
  email: string;
  full_name: string;
  username: string | null;
  role_id: number | null;
  role_name: string | null;
  joined_at: Date;
}
interface InvitationRow {
  id: number;
  team_id: number;
  team_name: string;
  email: string;
  role_id: number;
  role_name: string;
  invited_by: number | null;
  created_at: Date;
  expires_at: Date;
}

const team = (row: TeamRow): Team => ({
  id: row.id,
  name: row.name,
  credit: row.credit,
  requireTfa: row.require_tfa,
  createdAt: row.created_at,
});
const role = (row: RoleRow): TeamRole => ({
  id: row.id,
  teamId: row.team_id,
  name: row.name,
  // jsonb keeps its own key order: written back, the document reads in the model's order.
  permissions: row.permissions === null ? null : permissionsToJson(rolePermissions(row)),
  isDefault: row.is_default,
});
const member = (row: MemberRow): TeamMember => ({
  userId: row.user_id,
  email: row.email,
  fullName: row.full_name,
  username: row.username,
  roleId: row.role_id,
  roleName: row.role_name,
  joinedAt: row.joined_at,
});
const invitation = (row: InvitationRow): TeamInvitation => ({
  id: row.id,
  teamId: row.team_id,
  teamName: row.team_name,
  email: row.email,
  roleId: row.role_id,
  roleName: row.role_name,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

const TEAM_COLUMNS = `id, name, credit::text AS credit, require_tfa, created_at`;
const ROLE_COLUMNS = `id, team_id, name, permissions, is_default`;
const MEMBER_SELECT = `
  SELECT m.user_id, u.email, u.full_name, u.username, m.role_id, r.name AS role_name, m.joined_at
    FROM team_members m JOIN users u ON u.id = m.user_id
    LEFT JOIN team_roles r ON r.id = m.role_id`;
const INVITATION_SELECT = `
  SELECT i.id, i.team_id, t.name AS team_name, i.email, i.role_id, r.name AS role_name,
         i.invited_by, i.created_at, i.expires_at
    FROM team_invitations i JOIN teams t ON t.id = i.team_id JOIN team_roles r ON r.id = i.role_id`;

@Injectable()
export class PostgresTeamStore extends TeamStore {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async create(name: string, ownerUserId: number): Promise<{ team: Team; roles: TeamRole[] }> {
    const [row] = await this.tx.rows<TeamRow>(
      `INSERT INTO teams (name) VALUES ($1) RETURNING ${TEAM_COLUMNS}`,
      [name],
    );
    const roles = await this.tx.rows<RoleRow>(
      `INSERT INTO team_roles (team_id, name, permissions, is_default)
       SELECT $1, r.name, r.permissions, true
         FROM jsonb_to_recordset($2::jsonb) AS r (name text, permissions jsonb)
       RETURNING ${ROLE_COLUMNS}`,
      [row.id, JSON.stringify(DEFAULT_TEAM_ROLES)],
    );
    const owner = roles.find((r) => r.permissions === null);
    await this.tx.rows(
      `INSERT INTO team_members (team_id, user_id, role_id) VALUES ($1, $2, $3)`,
      [row.id, ownerUserId, owner?.id],
    );
    return { team: team(row), roles: roles.map(role) };
  }

  async find(teamId: number): Promise<Team | null> {
    const rows = await this.tx.rows<TeamRow>(`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = $1`, [teamId]);
    return rows[0] ? team(rows[0]) : null;
  }

  async lock(teamId: number): Promise<Team | null> {
    const rows = await this.tx.rows<TeamRow>(
      `SELECT ${TEAM_COLUMNS} FROM teams WHERE id = $1 FOR UPDATE`,
      [teamId],
    );
    return rows[0] ? team(rows[0]) : null;
  }

  async setRequireTfa(teamId: number, requireTfa: boolean): Promise<void> {
    await this.tx.rows(`UPDATE teams SET require_tfa = $2 WHERE id = $1`, [teamId, requireTfa]);
  }

  async destroy(teamId: number): Promise<boolean> {
    // Resources of the team (endpoint groups, volume listings, contracts) refer to it
    // without cascading: while one remains, the team stays (docs/teams.md).
    return this.tx.transaction(async () => {
      try {
        await this.tx.rows(`SAVEPOINT team_destroy`);
        await this.tx.rows(`DELETE FROM teams WHERE id = $1`, [teamId]);
        await this.tx.rows(`RELEASE SAVEPOINT team_destroy`);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code !== '23503') throw error;
        await this.tx.rows(`ROLLBACK TO SAVEPOINT team_destroy`);
        return false;
      }
    });
  }

  async transferCredit(userId: number, teamId: number, amount: string): Promise<boolean> {
    const taken = await this.tx.rows(
      `UPDATE users SET credit = credit - $2::numeric, updated_at = now()
        WHERE id = $1 AND credit >= $2::numeric RETURNING id`,
      [userId, amount],
    );
    if (taken.length === 0) return false;
    await this.tx.rows(`UPDATE teams SET credit = credit + $2::numeric WHERE id = $1`, [
      teamId,
      amount,
    ]);
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
    if (kind === 'session') {
      await this.tx.rows(`UPDATE sessions SET team_id = $2 WHERE id = $1`, [credentialId, teamId]);
      return { wasMain: false, permissions: null, keyParams: null, expiresAt: null };
    }
    const rows = await this.tx.rows<{
      was_main: boolean;
      permissions: PermissionDocumentJson | null;
      key_params: Record<string, unknown> | null;
      expires_at: Date | null;
    }>(
      `UPDATE api_keys k SET team_id = $2, is_main = false
         FROM api_keys old WHERE k.id = $1 AND old.id = k.id
       RETURNING old.is_main AS was_main, k.permissions, k.key_params, k.expires_at`,
      [credentialId, teamId],
    );
    const row = rows[0];
    return {
      wasMain: row?.was_main ?? false,
      permissions: row?.permissions ?? null,
      keyParams: row?.key_params ?? null,
      expiresAt: row?.expires_at ?? null,
    };
  }

  async members(teamId: number): Promise<TeamMember[]> {
    const rows = await this.tx.rows<MemberRow>(
      `${MEMBER_SELECT} WHERE m.team_id = $1 ORDER BY m.joined_at, m.user_id`,
      [teamId],
    );
    return rows.map(member);
  }

  async member(teamId: number, userId: number): Promise<TeamMember | null> {
    const rows = await this.tx.rows<MemberRow>(
      `${MEMBER_SELECT} WHERE m.team_id = $1 AND m.user_id = $2`,
      [teamId, userId],
    );
    return rows[0] ? member(rows[0]) : null;
  }

  async addMember(teamId: number, userId: number, roleId: number): Promise<boolean> {
    const rows = await this.tx.rows(
      `INSERT INTO team_members (team_id, user_id, role_id) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [teamId, userId, roleId],
    );
    return rows.length > 0;
  }

  async setMemberRole(teamId: number, userId: number, roleId: number): Promise<void> {
    await this.tx.rows(`UPDATE team_members SET role_id = $3 WHERE team_id = $1 AND user_id = $2`, [
      teamId,
      userId,
      roleId,
    ]);
  }

  async removeMember(teamId: number, userId: number, at: Date): Promise<boolean> {
    const rows = await this.tx.rows(
      `DELETE FROM team_members WHERE team_id = $1 AND user_id = $2 RETURNING user_id`,
      [teamId, userId],
    );
    if (rows.length === 0) return false;
    await this.tx.rows(
      `UPDATE api_keys SET revoked_at = $3 WHERE team_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
      [teamId, userId, at],
    );
    await this.tx.rows(
      `UPDATE sessions SET revoked_at = $3 WHERE team_id = $1 AND user_id = $2 AND revoked_at IS NULL`,
      [teamId, userId, at],
    );
    return true;
  }

  async countWithRole(teamId: number, roleId: number): Promise<number> {
    const rows = await this.tx.rows<{ count: number }>(
      `SELECT count(*)::int AS count FROM team_members WHERE team_id = $1 AND role_id = $2`,
      [teamId, roleId],
    );
    return rows[0].count;
  }

  async userIdsWithRole(teamId: number, roleId: number): Promise<number[]> {
    const rows = await this.tx.rows<{ user_id: number }>(
      `SELECT user_id FROM team_members WHERE team_id = $1 AND role_id = $2`,
      [teamId, roleId],
    );
    return rows.map((row) => row.user_id);
  }

  async roles(teamId: number): Promise<TeamRole[]> {
    const rows = await this.tx.rows<RoleRow>(
      `SELECT ${ROLE_COLUMNS} FROM team_roles WHERE team_id = $1 ORDER BY id`,
      [teamId],
    );
    return rows.map(role);
  }

  async roleByName(teamId: number, name: string): Promise<TeamRole | null> {
    const rows = await this.tx.rows<RoleRow>(
      `SELECT ${ROLE_COLUMNS} FROM team_roles WHERE team_id = $1 AND lower(name) = lower($2)`,
      [teamId, name],
    );
    return rows[0] ? role(rows[0]) : null;
  }

  async roleById(teamId: number, roleId: number): Promise<TeamRole | null> {
    const rows = await this.tx.rows<RoleRow>(
      `SELECT ${ROLE_COLUMNS} FROM team_roles WHERE team_id = $1 AND id = $2`,
      [teamId, roleId],
    );
    return rows[0] ? role(rows[0]) : null;
  }

  async insertRole(
    teamId: number,
    name: string,
    permissions: PermissionDocumentJson | null,
  ): Promise<TeamRole | null> {
    const rows = await this.tx.rows<RoleRow>(
      `INSERT INTO team_roles (team_id, name, permissions) VALUES ($1, $2, $3)
       ON CONFLICT (team_id, lower(name)) DO NOTHING RETURNING ${ROLE_COLUMNS}`,
      [teamId, name, permissions === null ? null : JSON.stringify(permissions)],
    );
    return rows[0] ? role(rows[0]) : null;
  }

  async updateRole(updated: TeamRole): Promise<boolean> {
    const clash = await this.tx.rows(
      `SELECT 1 FROM team_roles WHERE team_id = $1 AND lower(name) = lower($2) AND id <> $3`,
      [updated.teamId, updated.name, updated.id],
    );
    if (clash.length > 0) return false;
    await this.tx.rows(`UPDATE team_roles SET name = $2, permissions = $3 WHERE id = $1`, [
      updated.id,
      updated.name,
      updated.permissions === null ? null : JSON.stringify(updated.permissions),
    ]);
    return true;
  }

  async deleteRole(teamId: number, roleId: number): Promise<void> {
    await this.tx.rows(`DELETE FROM team_roles WHERE team_id = $1 AND id = $2`, [teamId, roleId]);
  }

  async invite(invitationInput: {
    teamId: number;
    email: string;
    roleId: number;
    tokenHash: string;
    tokenCiphertext: (invitationId: number) => string;
    invitedBy: number;
    expiresAt: Date;
  }): Promise<number> {
    await this.tx.rows(
      `UPDATE team_invitations SET ended_at = now(), outcome = 'replaced'
        WHERE team_id = $1 AND lower(email) = lower($2) AND ended_at IS NULL`,
      [invitationInput.teamId, invitationInput.email],
    );
    const rows = await this.tx.rows<{ id: number }>(
      `INSERT INTO team_invitations (team_id, email, role_id, token_hash, token_ciphertext, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, '', $5, $6) RETURNING id`,
      [
        invitationInput.teamId,
        invitationInput.email,
        invitationInput.roleId,
        invitationInput.tokenHash,
        invitationInput.invitedBy,
        invitationInput.expiresAt,
      ],
    );
    const id = rows[0].id;
    await this.tx.rows(`UPDATE team_invitations SET token_ciphertext = $2 WHERE id = $1`, [
      id,
      invitationInput.tokenCiphertext(id),
    ]);
    return id;
  }

  async letterOf(
    invitationId: number,
    now: Date,
  ): Promise<{ invitation: TeamInvitation; tokenCiphertext: string } | null> {
    const rows = await this.tx.rows<InvitationRow & { token_ciphertext: string }>(
      `${INVITATION_SELECT.replace('SELECT i.id,', 'SELECT i.token_ciphertext, i.id,')}
        WHERE i.id = $1 AND i.ended_at IS NULL AND i.expires_at > $2`,
      [invitationId, now],
    );
    return rows[0] ? { invitation: invitation(rows[0]), tokenCiphertext: rows[0].token_ciphertext } : null;
  }

  async pendingInvitations(teamId: number, now: Date): Promise<TeamInvitation[]> {
    const rows = await this.tx.rows<InvitationRow>(
      `${INVITATION_SELECT} WHERE i.team_id = $1 AND i.ended_at IS NULL AND i.expires_at > $2 ORDER BY i.id`,
      [teamId, now],
    );
    return rows.map(invitation);
  }

  async invitationsFor(email: string, now: Date): Promise<TeamInvitation[]> {
    const rows = await this.tx.rows<InvitationRow>(
      `${INVITATION_SELECT} WHERE lower(i.email) = lower($1) AND i.ended_at IS NULL AND i.expires_at > $2 ORDER BY i.id`,
      [email, now],
    );
    return rows.map(invitation);
  }

  async invitationByToken(tokenHashes: string[], now: Date): Promise<TeamInvitation | null> {
    const rows = await this.tx.rows<InvitationRow>(
      `${INVITATION_SELECT} WHERE i.token_hash = ANY($1::text[]) AND i.ended_at IS NULL AND i.expires_at > $2
        FOR UPDATE OF i`,
      [tokenHashes, now],
    );
    return rows[0] ? invitation(rows[0]) : null;
  }

  async invitationById(invitationId: number, now: Date): Promise<TeamInvitation | null> {
    const rows = await this.tx.rows<InvitationRow>(
      `${INVITATION_SELECT} WHERE i.id = $1 AND i.ended_at IS NULL AND i.expires_at > $2 FOR UPDATE OF i`,
      [invitationId, now],
    );
    return rows[0] ? invitation(rows[0]) : null;
  }

  async endInvitation(
    invitationId: number,
    outcome: 'accepted' | 'declined' | 'revoked',
    at: Date,
  ): Promise<boolean> {
    const rows = await this.tx.rows(
      `UPDATE team_invitations SET ended_at = $3, outcome = $2 WHERE id = $1 AND ended_at IS NULL RETURNING id`,
      [invitationId, outcome, at],
    );
    return rows.length > 0;
  }
}
