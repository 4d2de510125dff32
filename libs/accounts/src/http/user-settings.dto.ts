import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UserResponseDto } from './user.response.dto';

/** The body of `PUT /api/v0/users/`: the keys this service keeps. */
export class UserSettingsRequestDto {
  @ApiPropertyOptional({ example: 25, minimum: 0, description: 'dollars, at most 2 decimals' })
  balance_threshold?: number;

  @ApiPropertyOptional({ example: true })
  balance_threshold_enabled?: boolean;
}

export class UserSettingsResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: UserResponseDto })
  user: UserResponseDto;
}
