import { numberOption } from '../options/validation';
import { CommandKit } from './command-kit';
import {
  addCommand,
  addGroup,
  allowOption,
  idArgument,
  permissionFileOption,
} from './command-spec';
import {
  acceptInvitation,
  createRole,
  createTeam,
  declineInvitation,
  destroyTeam,
  invitations,
  inviteMember,
  removeMember,
  removeRole,
  revokeInvitation,
  setMemberRole,
  showRole,
  teamMembers,
  teamPolicy,
  teamRoles,
  updateRole,
} from './team.handlers';

const amount = numberOption({ min: 0 });

/** `team ...`: teams, members, roles and invitations (docs/teams.md). */
export function registerTeamCommands(kit: CommandKit): void {
  const team = addGroup(
    kit.program,
    'team',
    'Teams: create, members, roles, invitations (team commands run with a team key)',
    'gpumkt team create --name engines',
    'gpumkt team members',
  );
  addCommand(kit, team, 'create', {
    description:
      'Create a team from your personal key; that key then acts in the team, and a new personal key is printed',
    options: [
      { flags: '--name <name>', description: 'the team name (required)', required: true },
      {
        flags: '--transfer-credit <amount>',
        description: 'credit moved to the team (default: 0)',
        parse: amount,
      },
    ],
    examples: ['gpumkt team create --name engines --transfer-credit 25'],
    handler: createTeam,
  });
  addCommand(kit, team, 'destroy', {
    description: 'Destroy the team (owners; refused while members, credit or resources remain)',
    examples: ['gpumkt team destroy'],
    handler: destroyTeam,
  });
  addCommand(kit, team, 'policy', {
    description: "Set the team's policy (owners)",
    options: [
      {
        flags: '--require-tfa <on|off>',
        description: 'on: refuse members without 2FA in the team; off: allow them (required)',
        required: true,
      },
    ],
    examples: ['gpumkt team policy --require-tfa on'],
    handler: teamPolicy,
  });
  addCommand(kit, team, 'members', {
    description: 'List the members and their roles',
    examples: ['gpumkt team members', 'gpumkt team members --raw'],
    handler: teamMembers,
  });
  addCommand(kit, team, 'invite', {
    description: 'Mail an invitation (a one-time token, valid 7 days) to an address',
    options: [
      { flags: '--email <email>', description: 'the address to invite (required)', required: true },
      {
        flags: '--role <role>',
        description: 'a role of the team, see gpumkt team roles (required)',
        required: true,
      },
    ],
    examples: ['gpumkt team invite --email ada@example.com --role member'],
    handler: inviteMember,
  });
  addCommand(kit, team, 'remove', {
    description: 'Remove a member (their team keys stop at once)',
    arguments: [idArgument('member id (gpumkt team members)')],
    examples: ['gpumkt team remove 1000042'],
    handler: removeMember,
  });
  addCommand(kit, team, 'roles', {
    description: 'List the roles of the team',
    examples: ['gpumkt team roles'],
    handler: teamRoles,
  });

  const role = addGroup(
    team,
    'role',
    'One role: show, create, update, remove, or give it to a member',
    'gpumkt team role show manager',
  );
  addCommand(kit, role, 'show', {
    description: 'Show a role and its permission document',
    arguments: [['<name>', 'role name']],
    examples: ['gpumkt team role show billing-reader'],
    handler: showRole,
  });
  addCommand(kit, role, 'create', {
    description: 'Create a custom role, never beyond your own permissions',
    options: [
      { flags: '--name <name>', description: 'role name (required)', required: true },
      permissionFileOption('a permission document as in docs/access.md (default: none)'),
      allowOption('shorthand for whole categories, e.g. billing_read team_read (default: none)'),
    ],
    examples: ['gpumkt team role create --name billing-reader --allow billing_read team_read'],
    handler: createRole,
  });
  addCommand(kit, role, 'update', {
    description: 'Rename a custom role or change its permissions',
    arguments: [['<role>', 'role id or name']],
    options: [
      { flags: '--name <name>', description: 'a new name (default: unchanged)' },
      permissionFileOption('a new permission document (default: unchanged)'),
      allowOption('shorthand for whole categories (default: unchanged)'),
    ],
    examples: ['gpumkt team role update billing-reader --allow billing_read'],
    handler: updateRole,
  });
  addCommand(kit, role, 'remove', {
    description: 'Remove a custom role nobody holds',
    arguments: [['<name>', 'role name']],
    examples: ['gpumkt team role remove billing-reader'],
    handler: removeRole,
  });
  addCommand(kit, role, 'set', {
    description: 'Give a member a role',
    arguments: [idArgument('member id'), ['<role>', 'role name']],
    examples: ['gpumkt team role set 1000042 manager'],
    handler: setMemberRole,
  });

  addCommand(kit, team, 'invitations', {
    description: "Pending invitations: the team's with a team key, yours with a personal key",
    examples: ['gpumkt team invitations'],
    handler: invitations,
  });
  addCommand(kit, team, 'accept', {
    description: 'Accept an invitation with your own personal key; prints your team key',
    arguments: [['<token>', "the mail's token"]],
    examples: ['gpumkt team accept gmi_...'],
    handler: acceptInvitation,
  });
  addCommand(kit, team, 'decline', {
    description: 'Decline an invitation with your own personal key',
    arguments: [['<token>', "the mail's token"]],
    examples: ['gpumkt team decline gmi_...'],
    handler: declineInvitation,
  });
  addCommand(kit, team, 'revoke', {
    description: 'Revoke a pending invitation of the team',
    arguments: [idArgument('invitation id (gpumkt team invitations)')],
    examples: ['gpumkt team revoke 1000042'],
    handler: revokeInvitation,
  });
}
