import { ApiProperty } from '@nestjs/swagger';

/** POST /users/logout: the session has ended. */
export class LogoutResponseDto {
  @ApiProperty({ enum: [true] }) success: boolean;
}
