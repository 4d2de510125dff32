import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PasswordLoginResponse } from './password-login.presenter';
import { UserResponseDto } from './user.response.dto';

/** POST /users/login: a session, or the second factor's challenge (password-login.presenter.ts). */
export class PasswordLoginResponseDto {
  @ApiProperty() success: boolean;
  @ApiProperty({ description: 'true when a second factor must complete the login' })
  tfa_required: boolean;
  @ApiPropertyOptional({
    description: 'without 2FA: the new session key (also in a cookie and X-Session-Key)',
  })
  session_key?: string;
  @ApiPropertyOptional({ description: 'without 2FA: session expiry, unix seconds' })
  expires_at?: number;
  @ApiPropertyOptional({ type: UserResponseDto }) user?: UserResponseDto;
  @ApiPropertyOptional({
    description: 'with 2FA: opens a 10-minute login challenge; send it back to the 2FA routes',
  })
  tfa_secret?: string;
  @ApiPropertyOptional({
    description: 'with 2FA: the configured methods',
    type: 'array',
    items: { type: 'object' },
  })
  methods?: Extract<PasswordLoginResponse, { tfa_required: true }>['methods'];
}
