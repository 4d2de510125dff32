import { ApiProperty } from '@nestjs/swagger';
import { ApiKeyCreatedDto } from './api-key.response.dto';

export class TeamRoleDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty() name: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'the permission document; null: every permission (the owner role)',
  })
  permissions: Record<string, unknown> | null;
  @ApiProperty({ description: 'owner, manager and member: made with the team, never changed' })
  is_default: boolean;
  @ApiProperty({ type: 'integer' }) team_id: number;
}

export class TeamMemberDto {
  @ApiProperty({ type: 'integer', description: 'the user id (`remove member ID` takes it)' })
  id: number;
  @ApiProperty() email: string;
  @ApiProperty({ type: 'string', nullable: true }) username: string | null;
  @ApiProperty() full_name: string;
  @ApiProperty({ type: 'string', nullable: true }) role: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) role_id: number | null;
  @ApiProperty({ type: 'integer', description: 'unix seconds' }) joined_at: number;
}

export class TeamCreatedDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty() msg: string;
  @ApiProperty({ type: 'integer' }) team_id: number;
  @ApiProperty() team_name: string;
  @ApiProperty({ type: 'number', description: "the team's credit" }) credit: number;
  @ApiProperty({ type: [TeamRoleDto] }) roles: TeamRoleDto[];
  @ApiProperty({
    type: ApiKeyCreatedDto,
    description:
      'a new personal key with the grant the calling key had (a full key for a session): the ' +
      'calling key or session now acts in the team',
  })
  personal_api_key: ApiKeyCreatedDto;
}

export class TeamPolicyDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ type: 'integer' }) team_id: number;
  @ApiProperty() team_name: string;
  @ApiProperty() require_tfa: boolean;
}

export class TeamDestroyedDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty() msg: string;
}

export class TeamRoleShownDto extends TeamRoleDto {
  @ApiProperty({ enum: [true] }) success: boolean;
}

export class TeamMemberShownDto extends TeamMemberDto {
  @ApiProperty({ enum: [true] }) success: boolean;
}

export class TeamInvitedDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty() msg: string;
  @ApiProperty({ type: 'integer' }) invitation_id: number;
  @ApiProperty() email: string;
  @ApiProperty() role: string;
  @ApiProperty({ type: 'integer', description: 'unix seconds' }) expires_at: number;
}

export class TeamInvitationDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer' }) team_id: number;
  @ApiProperty() team_name: string;
  @ApiProperty() email: string;
  @ApiProperty() role: string;
  @ApiProperty({ type: 'integer', nullable: true }) invited_by: number | null;
  @ApiProperty({ type: 'integer', description: 'unix seconds' }) created_at: number;
  @ApiProperty({ type: 'integer', description: 'unix seconds' }) expires_at: number;
}

export class TeamInvitationAcceptedDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty() msg: string;
  @ApiProperty({ type: 'integer' }) team_id: number;
  @ApiProperty() team_name: string;
  @ApiProperty() role: string;
  @ApiProperty({ type: ApiKeyCreatedDto, description: 'your first key of the team, shown once' })
  team_api_key: ApiKeyCreatedDto;
}
