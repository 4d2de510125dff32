import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `{"id": <volume listing id>}`. The id is checked by the domain rather than here, so a
 * missing id gets the exact message the public client shows.
 */
export class UnlistVolumeRequestDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 30001, description: 'volume listing id' })
  @Allow()
  id?: unknown;
}
