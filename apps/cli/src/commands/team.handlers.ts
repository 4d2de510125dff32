import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { permissionsFrom } from './access.handlers';
import {
  renderInvitations,
  renderInvited,
  renderJoined,
  renderTeamCreated,
  renderTeamMembers,
  renderTeamRole,
  renderTeamRoles,
} from './team.render';

/** `team create`: the key in use becomes your key of the team (docs/teams.md). */
export async function createTeam(
  context: CommandContext,
  options: { name: string; transferCredit?: number },
): Promise<void> {
  const created = await context.api().post('/api/v0/team/', {
    body: { team_name: options.name, transfer_credit: options.transferCredit ?? 0 },
  });
  context.output(created, () => renderTeamCreated(created));
}

export async function destroyTeam(context: CommandContext): Promise<void> {
  const response = await context.api().delete('/api/v0/team/');
  context.output(response, () => `${response.msg}\n`);
}

export async function teamPolicy(
  context: CommandContext,
  options: { requireTfa: string },
): Promise<void> {
  if (options.requireTfa !== 'on' && options.requireTfa !== 'off')
    throw new UsageError('--require-tfa takes on or off');
  const response = await context
    .api()
    .put('/api/v0/team/', { body: { require_tfa: options.requireTfa === 'on' } });
  context.output(response, () => `require_tfa ${response.require_tfa ? 'on' : 'off'} for team ${response.team_id}.\n`);
}

export async function teamMembers(context: CommandContext): Promise<void> {
  const members = await context.api().get('/api/v0/team/members/');
  context.output(members, () => renderTeamMembers(members));
}

export async function inviteMember(
  context: CommandContext,
  options: { email: string; role: string },
): Promise<void> {
  const invited = await context.api().post('/api/v0/team/invite/', {
    params: { query: { email: options.email, role: options.role } },
  });
  context.output(invited, () => renderInvited(invited));
}

export async function removeMember(context: CommandContext, id: number): Promise<void> {
  const response = await context
    .api()
    .delete('/api/v0/team/members/{id}/', { params: { path: { id } } });
  context.output(response, () => `${response.msg}\n`);
}

export async function teamRoles(context: CommandContext): Promise<void> {
  const roles = await context.api().get('/api/v0/team/roles-full/');
  context.output(roles, () => renderTeamRoles(roles));
}

export async function showRole(context: CommandContext, name: string): Promise<void> {
  const role = await context
    .api()
    .get('/api/v0/team/roles/{role}/', { params: { path: { role: name } } });
  context.output(role, () => renderTeamRole(role));
}

export async function createRole(
  context: CommandContext,
  options: { name: string; permissionFile?: string; allow?: string[] },
): Promise<void> {
  const permissions = permissionsFrom(options);
  if (permissions === undefined) throw new UsageError('give --permission-file or --allow');
  const role = await context
    .api()
    .post('/api/v0/team/roles/', { body: { name: options.name, permissions } });
  context.output(role, () => renderTeamRole(role));
}

export async function updateRole(
  context: CommandContext,
  role: string,
  options: { name?: string; permissionFile?: string; allow?: string[] },
): Promise<void> {
  const permissions = permissionsFrom(options);
  const updated = await context.api().put('/api/v0/team/roles/{role}/', {
    params: { path: { role } },
    body: {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(permissions !== undefined ? { permissions } : {}),
    },
  });
  context.output(updated, () => renderTeamRole(updated));
}

export async function removeRole(context: CommandContext, name: string): Promise<void> {
  const response = await context
    .api()
    .delete('/api/v0/team/roles/{role}/', { params: { path: { role: name } } });
  context.output(response, () => `${response.msg}\n`);
}

export async function setMemberRole(context: CommandContext, id: number, role: string): Promise<void> {
  const member = await context
    .api()
    .put('/api/v0/team/members/{id}/', { params: { path: { id } }, body: { role } });
  context.output(member, () => `Member ${member.id} (${member.email}) is now ${member.role}.\n`);
}

export async function invitations(context: CommandContext): Promise<void> {
  const list = await context.api().get('/api/v0/team/invitations/');
  context.output(list, () => renderInvitations(list));
}

export async function acceptInvitation(context: CommandContext, token: string): Promise<void> {
  const joined = await context.api().post('/api/v0/team/accept/', { body: { token } });
  context.output(joined, () => renderJoined(joined));
}

export async function declineInvitation(context: CommandContext, token: string): Promise<void> {
  const response = await context.api().post('/api/v0/team/decline/', { body: { token } });
  context.output(response, () => `${response.msg}\n`);
}

export async function revokeInvitation(context: CommandContext, id: number): Promise<void> {
  const response = await context
    .api()
    .delete('/api/v0/team/invitations/{id}/', { params: { path: { id } } });
  context.output(response, () => `${response.msg}\n`);
}
