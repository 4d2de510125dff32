import { ApiSchema } from '@app/api-client';
import { formatCell, formatTimestamp } from '../output/format';
import { renderKeyValues, renderTable } from '../output/table';
import { describePermissions, renderKeyCreated } from './access.render';

export type TeamCreated = ApiSchema<'TeamCreatedDto'>;
export type TeamMember = ApiSchema<'TeamMemberDto'>;
export type TeamRole = ApiSchema<'TeamRoleDto'>;
export type TeamInvitation = ApiSchema<'TeamInvitationDto'>;
export type TeamInvited = ApiSchema<'TeamInvitedDto'>;
export type TeamJoined = ApiSchema<'TeamInvitationAcceptedDto'>;

export function renderTeamCreated(created: TeamCreated): string {
  const lines = [
    `Team ${created.team_id} (${created.team_name}) created, credit ${created.credit}; ` +
      'the key you ran this with now acts in the team.',
  ];
  if (created.personal_api_key)
    lines.push(`Your new personal key: ${renderKeyCreated(created.personal_api_key).trimEnd()}`);
  return `${lines.join('\n')}\n`;
}

export function renderTeamMembers(members: TeamMember[]): string {
  if (members.length === 0) return 'No members.\n';
  return renderTable(
    ['id', 'email', 'name', 'role', 'joined'].map((header) => ({ header })),
    members.map((member) => [
      String(member.id),
      member.email,
      formatCell(member.full_name || member.username),
      formatCell(member.role),
      formatTimestamp(member.joined_at),
    ]),
  );
}

export function renderTeamRoles(roles: TeamRole[]): string {
  return renderTable(
    ['id', 'name', 'permissions', 'default'].map((header) => ({ header })),
    roles.map((role) => [
      String(role.id),
      role.name,
      describePermissions(role.permissions),
      role.is_default ? 'yes' : '',
    ]),
  );
}

export function renderTeamRole(role: TeamRole): string {
  return renderKeyValues([
    ['id', String(role.id)],
    ['name', role.name],
    ['default', role.is_default ? 'yes' : 'no'],
    ['permissions', role.permissions === null ? 'full' : JSON.stringify(role.permissions)],
  ]);
}

export function renderInvitations(invitations: TeamInvitation[]): string {
  if (invitations.length === 0) return 'No pending invitations.\n';
  return renderTable(
    ['id', 'team', 'email', 'role', 'expires'].map((header) => ({ header })),
    invitations.map((invitation) => [
      String(invitation.id),
      `${invitation.team_id} (${invitation.team_name})`,
      invitation.email,
      invitation.role,
      formatTimestamp(invitation.expires_at),
    ]),
  );
}

export function renderInvited(invited: TeamInvited): string {
  return `Invitation ${invited.invitation_id} mailed to ${invited.email} (${invited.role}), valid until ${formatTimestamp(invited.expires_at)} UTC.\n`;
}

export function renderJoined(joined: TeamJoined): string {
  return `${joined.msg}\nYour team key: ${renderKeyCreated(joined.team_api_key).trimEnd()}\n`;
}
