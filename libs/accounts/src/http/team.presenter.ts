import { TeamMember, TeamRole } from '../domain/team';
import { TeamInvitation } from '../application/ports/team-store.port';
import { TeamInvitationDto, TeamMemberDto, TeamRoleDto } from './team.response.dto';

export function presentTeamRole(role: TeamRole): TeamRoleDto {
  return {
    id: role.id,
    name: role.name,
    permissions: role.permissions,
    is_default: role.isDefault,
    team_id: role.teamId,
  };
}

export function presentTeamMember(member: TeamMember): TeamMemberDto {
  return {
    id: member.userId,
    email: member.email,
    username: member.username,
    full_name: member.fullName,
    role: member.roleName,
    role_id: member.roleId,
    joined_at: Math.floor(member.joinedAt.getTime() / 1000),
  };
}

export function presentTeamInvitation(invitation: TeamInvitation): TeamInvitationDto {
  return {
    id: invitation.id,
    team_id: invitation.teamId,
    team_name: invitation.teamName,
    email: invitation.email,
    role: invitation.roleName,
    invited_by: invitation.invitedBy,
    created_at: Math.floor(invitation.createdAt.getTime() / 1000),
    expires_at: Math.floor(invitation.expiresAt.getTime() / 1000),
  };
}
