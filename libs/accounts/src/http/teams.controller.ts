import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, CurrentPrincipal, Principal, requestOrigin, SecurityWrite } from '@app/platform';
import { CreateTeamRoleUseCase } from '../application/teams/create-team-role.use-case';
import { CreateTeamUseCase } from '../application/teams/create-team.use-case';
import { DestroyTeamUseCase } from '../application/teams/destroy-team.use-case';
import { ListTeamMembersUseCase } from '../application/teams/list-team-members.use-case';
import { ListTeamRolesUseCase } from '../application/teams/list-team-roles.use-case';
import { RemoveTeamMemberUseCase } from '../application/teams/remove-team-member.use-case';
import { RemoveTeamRoleUseCase } from '../application/teams/remove-team-role.use-case';
import { SetTeamMemberRoleUseCase } from '../application/teams/set-team-member-role.use-case';
import { UpdateTeamRoleUseCase } from '../application/teams/update-team-role.use-case';
import { ApiAccountsErrors } from './accounts-route-errors';
import { presentApiKey } from './api-key.presenter';
import { parseKeyId } from './api-key.request';
import { presentTeamMember, presentTeamRole } from './team.presenter';
import { roleNameArgument } from './team.request';
import {
  CreateTeamRequestDto,
  SetMemberRoleRequestDto,
  TeamPolicyRequestDto,
  TeamRoleRequestDto,
} from './team.request.dto';
import { SetTeamPolicyUseCase } from '../application/teams/set-team-policy.use-case';
import {
  TeamCreatedDto,
  TeamDestroyedDto,
  TeamMemberDto,
  TeamMemberShownDto,
  TeamPolicyDto,
  TeamRoleDto,
  TeamRoleShownDto,
} from './team.response.dto';

const TEAM_CONTEXT = 'In team context (a team key); a personal key: 403 team_context_required.';

/**
 * Teams, as the public client's `create team`, `destroy team`, `show members`, `remove
 * member`, `create|show|update|remove team-role` and `show team-roles` drive them
 * (docs/teams.md). Paths end with a slash or not, as the client sends them.
 */
@ApiTags('teams')
@ApiBearerAuth()
@Controller('api/v0/team')
export class TeamsController {
  constructor(
    private readonly createTeam: CreateTeamUseCase,
    private readonly destroyTeam: DestroyTeamUseCase,
    private readonly listMembers: ListTeamMembersUseCase,
    private readonly removeMember: RemoveTeamMemberUseCase,
    private readonly setMemberRole: SetTeamMemberRoleUseCase,
    private readonly createRole: CreateTeamRoleUseCase,
    private readonly listRoles: ListTeamRolesUseCase,
    private readonly updateRole: UpdateTeamRoleUseCase,
    private readonly removeRole: RemoveTeamRoleUseCase,
    private readonly setTeamPolicy: SetTeamPolicyUseCase,
  ) {}

  @Post()
  @Access('user_write', 'api.team.create')
  @SecurityWrite()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a team (`create team`)',
    description:
      'From the personal context. The calling key becomes your key of the new team (as on the ' +
      'public service); `personal_api_key` is a new personal key with the same grant (a ' +
      'session, which also becomes a team session, gets a full key). ' +
      '`transfer_credit` moves that much of your credit to the team, exactly, or nothing happens.',
  })
  @ApiBody({ type: CreateTeamRequestDto })
  @ApiOkResponse({ type: TeamCreatedDto })
  @ApiAccountsErrors('bad_request', 'insufficient_credit', 'personal_context_required')
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTeamRequestDto,
    @Req() request: Request,
  ): Promise<TeamCreatedDto> {
    const created = await this.createTeam.execute({
      principal,
      teamName: body.team_name,
      transferCredit: body.transfer_credit,
      origin: requestOrigin(request),
    });
    return {
      success: true,
      msg: `Team ${created.team.name} created; the key you used now acts in it.`,
      team_id: created.team.id,
      team_name: created.team.name,
      credit: Number(created.team.credit),
      roles: created.roles.map(presentTeamRole),
      personal_api_key: {
        success: true,
        key: created.personalKey.key,
        ...presentApiKey(created.personalKey.apiKey),
      },
    };
  }

  @Delete()
  @Access('team_write', 'api.team.destroy')
  @SecurityWrite()
  @ApiOperation({
    summary: 'Destroy the team (`destroy team`)',
    description: `${TEAM_CONTEXT} The owner only; refused while other members or credit remain.`,
  })
  @ApiOkResponse({ type: TeamDestroyedDto })
  @ApiAccountsErrors('team_context_required', 'team_owner_required', 'team_not_empty')
  async destroy(
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
  ): Promise<TeamDestroyedDto> {
    const { teamId, name } = await this.destroyTeam.execute(principal, requestOrigin(request));
    return { success: true, msg: `Team ${teamId} (${name}) destroyed.` };
  }

  @Put()
  @Access('team_write', 'api.team.update')
  @SecurityWrite()
  @ApiOperation({
    summary: "Set the team's policy",
    description:
      `${TEAM_CONTEXT} Owners only. \`require_tfa\`: members without 2FA are refused in the team ` +
      '(403 team_tfa_required) until they enable it.',
  })
  @ApiBody({ type: TeamPolicyRequestDto })
  @ApiOkResponse({ type: TeamPolicyDto })
  @ApiAccountsErrors('bad_request', 'team_context_required', 'team_owner_required', 'team_tfa_required')
  async setPolicy(
    @CurrentPrincipal() principal: Principal,
    @Body() body: TeamPolicyRequestDto,
    @Req() request: Request,
  ): Promise<TeamPolicyDto> {
    const team = await this.setTeamPolicy.execute(principal, body.require_tfa, requestOrigin(request));
    return { success: true, team_id: team.id, team_name: team.name, require_tfa: team.requireTfa };
  }

  @Get('members')
  @Access('team_read', 'api.team.members.list')
  @ApiOperation({ summary: 'The team members (`show members`)', description: TEAM_CONTEXT })
  @ApiOkResponse({ type: [TeamMemberDto] })
  @ApiAccountsErrors('team_context_required')
  async members(@CurrentPrincipal() principal: Principal): Promise<TeamMemberDto[]> {
    const { members } = await this.listMembers.execute(principal);
    return members.map(presentTeamMember);
  }

  @Delete('members/:id')
  @Access('team_write', 'api.team.members.remove')
  @SecurityWrite()
  @ApiParam({ name: 'id', type: 'integer', description: 'the member\'s user id' })
  @ApiOperation({
    summary: 'Remove a member (`remove member ID`)',
    description: `${TEAM_CONTEXT} Their team keys stop at once on every replica; the last owner stays.`,
  })
  @ApiOkResponse({ type: TeamDestroyedDto })
  @ApiAccountsErrors('team_context_required', 'team_member_not_found', 'team_last_owner', 'permission_denied')
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @Req() request: Request,
  ): Promise<TeamDestroyedDto> {
    const userId = parseKeyId(rawId);
    await this.removeMember.execute(principal, userId, requestOrigin(request));
    return { success: true, msg: `Member ${userId} removed from the team.` };
  }

  @Put('members/:id')
  @Access('team_write', 'api.team.members.update')
  @SecurityWrite()
  @ApiParam({ name: 'id', type: 'integer', description: 'the member\'s user id' })
  @ApiOperation({
    summary: "Change a member's role",
    description: `${TEAM_CONTEXT} Never to or from a role broader than your own; takes effect at once on every replica.`,
  })
  @ApiBody({ type: SetMemberRoleRequestDto })
  @ApiOkResponse({ type: TeamMemberShownDto })
  @ApiAccountsErrors('team_context_required', 'team_member_not_found', 'team_role_not_found', 'team_last_owner')
  async setRole(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @Body() body: SetMemberRoleRequestDto,
    @Req() request: Request,
  ): Promise<TeamMemberShownDto> {
    const userId = parseKeyId(rawId);
    const member = await this.setMemberRole.execute(
      principal,
      userId,
      roleNameArgument(body.role),
      requestOrigin(request),
    );
    return { success: true, ...presentTeamMember(member) };
  }

  @Post('roles')
  @Access('team_write', 'api.team.roles.create')
  @SecurityWrite()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a role (`create team-role`)',
    description: `${TEAM_CONTEXT} Never broader than your own permissions.`,
  })
  @ApiBody({ type: TeamRoleRequestDto })
  @ApiOkResponse({ type: TeamRoleShownDto })
  @ApiAccountsErrors('team_context_required', 'bad_request', 'team_role_exists', 'permission_denied')
  async createRoleRoute(
    @CurrentPrincipal() principal: Principal,
    @Body() body: TeamRoleRequestDto,
    @Req() request: Request,
  ): Promise<TeamRoleShownDto> {
    const role = await this.createRole.execute(
      principal,
      { name: body.name, permissions: body.permissions },
      requestOrigin(request),
    );
    return { success: true, ...presentTeamRole(role) };
  }

  @Get('roles-full')
  @Access('team_read', 'api.team.roles.list')
  @ApiOperation({ summary: 'The team roles (`show team-roles`)', description: TEAM_CONTEXT })
  @ApiOkResponse({ type: [TeamRoleDto] })
  @ApiAccountsErrors('team_context_required')
  async roles(@CurrentPrincipal() principal: Principal): Promise<TeamRoleDto[]> {
    return (await this.listRoles.execute(principal)).map(presentTeamRole);
  }

  @Get('roles/:role')
  @Access('team_read', 'api.team.roles.show')
  @ApiParam({ name: 'role', type: 'string', description: 'the role name' })
  @ApiOperation({ summary: 'One team role (`show team-role NAME`)', description: TEAM_CONTEXT })
  @ApiOkResponse({ type: TeamRoleShownDto })
  @ApiAccountsErrors('team_context_required', 'team_role_not_found')
  async role(
    @CurrentPrincipal() principal: Principal,
    @Param('role') name: string,
  ): Promise<TeamRoleShownDto> {
    return { success: true, ...presentTeamRole(await this.listRoles.one(principal, name)) };
  }

  @Put('roles/:role')
  @Access('team_write', 'api.team.roles.update')
  @SecurityWrite()
  @ApiParam({ name: 'role', type: 'string', description: 'the role id (as `update team-role ID` sends it) or its name' })
  @ApiOperation({
    summary: 'Update a role (`update team-role ID`)',
    description: `${TEAM_CONTEXT} A custom role's name or permissions; its members act with them at once.`,
  })
  @ApiBody({ type: TeamRoleRequestDto })
  @ApiOkResponse({ type: TeamRoleShownDto })
  @ApiAccountsErrors('team_context_required', 'team_role_not_found', 'team_role_default', 'team_role_exists')
  async updateRoleRoute(
    @CurrentPrincipal() principal: Principal,
    @Param('role') role: string,
    @Body() body: TeamRoleRequestDto,
    @Req() request: Request,
  ): Promise<TeamRoleShownDto> {
    const updated = await this.updateRole.execute(
      principal,
      /^\d+$/.test(role) ? parseKeyId(role) : role,
      { name: body.name, permissions: body.permissions },
      requestOrigin(request),
    );
    return { success: true, ...presentTeamRole(updated) };
  }

  @Delete('roles/:role')
  @Access('team_write', 'api.team.roles.delete')
  @SecurityWrite()
  @ApiParam({ name: 'role', type: 'string', description: 'the role name' })
  @ApiOperation({
    summary: 'Remove a role (`remove team-role NAME`)',
    description: `${TEAM_CONTEXT} A custom role nobody holds.`,
  })
  @ApiOkResponse({ type: TeamDestroyedDto })
  @ApiAccountsErrors('team_context_required', 'team_role_not_found', 'team_role_default', 'team_role_in_use')
  async removeRoleRoute(
    @CurrentPrincipal() principal: Principal,
    @Param('role') name: string,
    @Req() request: Request,
  ): Promise<TeamDestroyedDto> {
    const role = await this.removeRole.execute(principal, name, requestOrigin(request));
    return { success: true, msg: `Role ${role.name} removed.` };
  }
}

