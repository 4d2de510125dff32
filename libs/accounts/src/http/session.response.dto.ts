import { ApiProperty } from '@nestjs/swagger';

/** A live session as its user sees it; never its key. */
export class SessionDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ type: 'integer', description: 'unix seconds' }) created_at: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'unix seconds of its latest use, written every few seconds (null: not since opened)',
  })
  last_used: number | null;
  @ApiProperty({ type: 'integer', description: 'unix seconds' }) expires_at: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'client address that opened it' })
  address: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'client address of its latest use' })
  last_address: string | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: 256 }) user_agent: string | null;
  @ApiProperty({ description: 'the session whose key made this request' }) current: boolean;
  @ApiProperty({
    description: 'opened by a password login that a trusted device let skip the second factor',
  })
  trusted_device: boolean;
}

export class SessionListDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ type: [SessionDto], description: 'live sessions, newest first' })
  sessions: SessionDto[];
}

export class SessionsEndedDto {
  @ApiProperty({ enum: [true] }) success: boolean;
  @ApiProperty({ example: 'Session 1000002 ended.' }) msg: string;
  @ApiProperty({ type: 'integer' }) sessions_ended: number;
  @ApiProperty({ type: 'integer', description: 'trusted devices revoked (all: true only)' })
  devices_revoked: number;
}
