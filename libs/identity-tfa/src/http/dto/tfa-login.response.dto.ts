import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
// The login answers the same user object as GET /users/current, so it reuses its schema.
import { UserResponseDto } from '@app/accounts';

/** POST /tfa/: the user object plus its conditional fields (docs/identity-tfa.md). */
export class TfaLoginResponseDto extends UserResponseDto {
  @ApiProperty({ enum: [true] })
  success: true;

  @ApiPropertyOptional({
    description:
      'Bearer (command-line) callers only: the new session key, to send as Bearer from now on. ' +
      'Logged out (secret only) it is in the cookie and the X-Session-Key header instead.',
  })
  session_key?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'only after a backup-code login, and only while unused codes remain',
  })
  backup_codes_remaining?: number;

  @ApiPropertyOptional({ enum: [true], description: 'only for legacy 2FA accounts' })
  legacy_tfa_user?: true;
}
