import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** POST /api/v0/team/ as `vastai create team` sends it. Types are checked by the use case. */
export class CreateTeamRequestDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 64 })
  @Allow()
  team_name?: unknown;

  @ApiPropertyOptional({
    description: 'personal credit moved to the team (at most 4 decimals); 0 by default',
    oneOf: [{ type: 'number' }, { type: 'string' }],
  })
  @Allow()
  transfer_credit?: unknown;
}

/** PUT /api/v0/team/: the team's policy. */
export class TeamPolicyRequestDto {
  @ApiPropertyOptional({ type: 'boolean', description: 'members without 2FA are refused in the team' })
  @Allow()
  require_tfa?: unknown;
}

/** POST /api/v0/team/roles/ and PUT /api/v0/team/roles/{id}/ (`create|update team-role`). */
export class TeamRoleRequestDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 64 })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'a permission document {"api": {...}} (docs/access.md)',
  })
  @Allow()
  permissions?: unknown;
}

/** PUT /api/v0/team/members/{id}/: the member's new role, by name. */
export class SetMemberRoleRequestDto {
  @ApiPropertyOptional({ type: 'string' })
  @Allow()
  role?: unknown;
}

/** An invitation's token, as the invitation mail carries it. */
export class InvitationTokenRequestDto {
  @ApiPropertyOptional({ type: 'string' })
  @Allow()
  token?: unknown;
}

/** POST /api/v0/team/{team_id}/apikeys/: the new team key's name. */
export class MemberTeamKeyRequestDto {
  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 255 })
  @Allow()
  name?: unknown;
}
