import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, CurrentPrincipal, Principal, requestOrigin, SecurityWrite } from '@app/platform';
import { AcceptTeamInvitationUseCase } from '../application/teams/accept-team-invitation.use-case';
import { CreateMemberTeamKeyUseCase } from '../application/teams/create-member-team-key.use-case';
import { DeclineTeamInvitationUseCase } from '../application/teams/decline-team-invitation.use-case';
import { InviteTeamMemberUseCase } from '../application/teams/invite-team-member.use-case';
import { ListTeamInvitationsUseCase } from '../application/teams/list-team-invitations.use-case';
import { RevokeTeamInvitationUseCase } from '../application/teams/revoke-team-invitation.use-case';
import { ApiAccountsErrors } from './accounts-route-errors';
import { presentApiKey } from './api-key.presenter';
import { parseKeyId } from './api-key.request';
import { presentTeamInvitation } from './team.presenter';
import { InvitationTokenRequestDto, MemberTeamKeyRequestDto } from './team.request.dto';
import {
  TeamDestroyedDto,
  TeamInvitationAcceptedDto,
  TeamInvitationDto,
  TeamInvitedDto,
} from './team.response.dto';
import { ApiKeyCreatedDto } from './api-key.response.dto';
import { memberKeyName } from './team.request';

/**
 * Invitations to a team (`vastai invite member`, and `gpumkt team invitations|accept`) and
 * a member's team keys (docs/teams.md "Invitations").
 */
@ApiTags('teams')
@ApiBearerAuth()
@Controller('api/v0/team')
export class TeamInvitationsController {
  constructor(
    private readonly invite: InviteTeamMemberUseCase,
    private readonly list: ListTeamInvitationsUseCase,
    private readonly accept: AcceptTeamInvitationUseCase,
    private readonly decline: DeclineTeamInvitationUseCase,
    private readonly revoke: RevokeTeamInvitationUseCase,
    private readonly memberKey: CreateMemberTeamKeyUseCase,
  ) {}

  @Post('invite')
  @Access('team_write', 'api.team.invite')
  @SecurityWrite()
  @HttpCode(200)
  @ApiQuery({ name: 'email', type: 'string' })
  @ApiQuery({ name: 'role', type: 'string', description: 'a role name of the team' })
  @ApiOperation({
    summary: 'Invite a member (`invite member --email E --role R`)',
    description:
      'In team context. A one-time token, valid 7 days, mailed to the address; inviting it ' +
      'again replaces the pending invitation. The same answer whether the address has an account or not.',
  })
  @ApiOkResponse({ type: TeamInvitedDto })
  @ApiAccountsErrors('bad_request', 'team_context_required', 'team_role_not_found', 'team_member_exists', 'permission_denied')
  async inviteMember(
    @CurrentPrincipal() principal: Principal,
    @Query('email') email: unknown,
    @Query('role') role: unknown,
    @Req() request: Request,
  ): Promise<TeamInvitedDto> {
    const invited = await this.invite.execute(principal, { email, role }, requestOrigin(request));
    return {
      success: true,
      msg: `Invitation mailed to ${invited.email}.`,
      invitation_id: invited.invitationId,
      email: invited.email,
      role: invited.role,
      expires_at: Math.floor(invited.expiresAt.getTime() / 1000),
    };
  }

  @Get('invitations')
  @Access('team_read', 'api.team.invitations.list')
  @ApiOperation({
    summary: 'Pending invitations',
    description:
      "In team context the team's pending invitations; in the personal context those to your own address. Never a token.",
  })
  @ApiOkResponse({ type: [TeamInvitationDto] })
  async invitations(@CurrentPrincipal() principal: Principal): Promise<TeamInvitationDto[]> {
    return (await this.list.execute(principal)).map(presentTeamInvitation);
  }

  @Delete('invitations/:id')
  @Access('team_write', 'api.team.invitations.revoke')
  @SecurityWrite()
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({ summary: 'Revoke a pending invitation', description: 'In team context; its token stops working.' })
  @ApiOkResponse({ type: TeamDestroyedDto })
  @ApiAccountsErrors('team_context_required', 'team_invitation_not_found')
  async revokeInvitation(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
  ): Promise<TeamDestroyedDto> {
    const id = parseKeyId(rawId);
    await this.revoke.execute(principal, id);
    return { success: true, msg: `Invitation ${id} revoked.` };
  }

  @Post('accept')
  @Access('user_write', 'api.team.invitations.accept')
  @SecurityWrite()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an invitation',
    description:
      "With your own personal credential and the mail's token: you join with the invited role; " +
      'the answer carries your first team key, shown once. A token is used once.',
  })
  @ApiBody({ type: InvitationTokenRequestDto })
  @ApiOkResponse({ type: TeamInvitationAcceptedDto })
  @ApiAccountsErrors('bad_request', 'personal_context_required', 'team_invitation_not_found', 'team_member_exists')
  async acceptInvitation(
    @CurrentPrincipal() principal: Principal,
    @Body() body: InvitationTokenRequestDto,
    @Req() request: Request,
  ): Promise<TeamInvitationAcceptedDto> {
    const { invitation, teamKey } = await this.accept.execute(
      principal,
      body.token,
      requestOrigin(request),
    );
    return {
      success: true,
      msg: `You joined ${invitation.teamName} as ${invitation.roleName}.`,
      team_id: invitation.teamId,
      team_name: invitation.teamName,
      role: invitation.roleName,
      team_api_key: { success: true, key: teamKey.key, ...presentApiKey(teamKey.apiKey) },
    };
  }

  @Post('decline')
  @Access('user_write', 'api.team.invitations.decline')
  @SecurityWrite()
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline an invitation', description: 'With your own personal credential and the token.' })
  @ApiBody({ type: InvitationTokenRequestDto })
  @ApiOkResponse({ type: TeamDestroyedDto })
  @ApiAccountsErrors('bad_request', 'personal_context_required', 'team_invitation_not_found')
  async declineInvitation(
    @CurrentPrincipal() principal: Principal,
    @Body() body: InvitationTokenRequestDto,
  ): Promise<TeamDestroyedDto> {
    const invitation = await this.decline.execute(principal, body.token);
    return { success: true, msg: `Invitation to ${invitation.teamName} declined.` };
  }

  @Post(':team_id/apikeys')
  @Access('user_write', 'api.team.apikeys.create')
  @SecurityWrite()
  @HttpCode(200)
  @ApiParam({ name: 'team_id', type: 'integer' })
  @ApiOperation({
    summary: 'A new team key of yours',
    description:
      'From your personal context, with a full key or a session, for a team you are a member of: ' +
      'the key acts in the team with your role. Shown once.',
  })
  @ApiBody({ type: MemberTeamKeyRequestDto, required: false })
  @ApiOkResponse({ type: ApiKeyCreatedDto })
  @ApiAccountsErrors('personal_context_required', 'team_not_found', 'permission_denied')
  async createMemberKey(
    @CurrentPrincipal() principal: Principal,
    @Param('team_id') rawTeamId: string,
    @Body() body: MemberTeamKeyRequestDto,
    @Req() request: Request,
  ): Promise<ApiKeyCreatedDto> {
    const { key, apiKey } = await this.memberKey.execute(
      principal,
      parseKeyId(rawTeamId),
      memberKeyName(body.name),
      requestOrigin(request),
    );
    return { success: true, key, ...presentApiKey(apiKey) };
  }
}
