import { ApiProperty } from '@nestjs/swagger';

/** A key as its owner sees it: never the key itself (only in the create and reset answers). */
export class ApiKeyDto {
  @ApiProperty({ type: 'integer' }) id: number;

  @ApiProperty({ type: 'string', nullable: true, maxLength: 255 }) name: string | null;

  @ApiProperty({ description: 'the first 8 characters of the key, to tell keys apart' })
  prefix: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'the permission document {"api": {...}} (docs/access.md); null: a full key, as keys without one are',
  })
  permissions: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'ip_whitelist (normalised) and the wildcard values the document was filled with',
  })
  key_params: Record<string, unknown> | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'the team of a team-context key' })
  team_id: number | null;

  @ApiProperty({ description: 'the main key: `reset api-key` rotates it; it cannot be deleted' })
  main: boolean;

  @ApiProperty({ type: 'integer', description: 'unix seconds' }) created_at: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'unix seconds of its latest use, written every few seconds (null: never used)',
  })
  last_used: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'unix seconds; null: never' })
  expires_at: number | null;
}

export class ApiKeyListDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ type: [ApiKeyDto], description: 'the live keys of this context, oldest first' })
  apikeys: ApiKeyDto[];
}

export class ApiKeyShownDto extends ApiKeyDto {
  @ApiProperty({ enum: [true] }) success: boolean;
}

export class ApiKeyCreatedDto extends ApiKeyShownDto {
  @ApiProperty({ description: 'the new key: shown this once, only its fingerprint is stored' })
  key: string;
}

export class ApiKeyDeletedDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ example: 'API key 1000001 deleted.' }) msg: string;
}

export class ApiKeyResetDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ description: 'the new main key (the old one no longer works)' })
  new_api_key: string;
  @ApiProperty({ type: 'integer', description: 'id of the new main key' }) id: number;
  @ApiProperty() prefix: string;
}
