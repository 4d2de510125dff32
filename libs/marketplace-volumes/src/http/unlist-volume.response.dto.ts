import { ApiProperty } from '@nestjs/swagger';

export class UnlistVolumeResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: 'Unlisted Volume 30001.', description: 'printed by the public client' })
  msg: string;
}

export class VolumeErrorResponseDto {
  @ApiProperty({ example: false })
  success: boolean;

  @ApiProperty({
    required: false,
    enum: ['bad_request', 'volume_listing_not_found', 'volume_listing_active'],
    example: 'volume_listing_not_found',
    description: 'absent when `id` is missing from the body',
  })
  error?: string;

  @ApiProperty({ example: 'Volume listing does not exist' })
  msg: string;
}
