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

  @ApiProperty({ example: 'Volume listing does not exist' })
  msg: string;
}
