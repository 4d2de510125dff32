import { ApiProperty } from '@nestjs/swagger';

export class UserResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String }) username: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'same as username' }) user:
    string | null;
  @ApiProperty() full_name: string;
  @ApiProperty({ description: 'same as full_name' }) fullname: string;
  @ApiProperty() email_verified: boolean;
  @ApiProperty() is_admin: boolean;
  @ApiProperty() tfa_enabled: boolean;
  @ApiProperty({ enum: ['enabled', 'disabled', 'legacy'] }) tfa_status: string;
  @ApiProperty() credit: number;
  @ApiProperty() balance: number;
  @ApiProperty({ description: 'the low-balance threshold, dollars (set with PUT /api/v0/users/)' })
  balance_threshold: number;
  @ApiProperty({ description: 'whether the low-balance threshold is on' })
  balance_threshold_enabled: boolean;
  @ApiProperty({ description: 'unix seconds' }) created_at: number;
}
