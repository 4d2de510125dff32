import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** POST /users/login: a username or an email, and the password. */
export class PasswordLoginRequestDto {
  @ApiPropertyOptional({ description: 'username or email; one of the two is required' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  username?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password: string;
}
