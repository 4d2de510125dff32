import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENDPOINT_STATES, EndpointState } from '../domain/endpoint-group';

export class CreateEndpointGroupResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ example: 1000000, description: 'id of the new endpoint group' })
  result: number;
}

export class EndpointGroupRowDto {
  @ApiProperty({ example: 1000000 })
  id: number;

  @ApiProperty({ type: 'string', nullable: true, example: 'llama-prod' })
  endpoint_name: string | null;

  @ApiProperty({ example: 42 })
  user_id: number;

  @ApiProperty({ example: 1767225600, description: 'epoch seconds' })
  created_at: number;

  @ApiProperty({ enum: ENDPOINT_STATES })
  endpoint_state: EndpointState;

  @ApiProperty({ example: 0.0 })
  min_load: number;

  @ApiProperty({ example: 0.0 })
  min_cold_load: number;

  @ApiProperty({ example: 0.9 })
  target_util: number;

  @ApiProperty({ example: 2.5 })
  cold_mult: number;

  @ApiProperty({ example: 5 })
  cold_workers: number;

  @ApiProperty({ example: 20 })
  max_workers: number;

  @ApiProperty({ example: 30.0 })
  max_queue_time: number;

  @ApiProperty({ example: 10.0 })
  target_queue_time: number;

  @ApiProperty({ example: 600 })
  inactivity_timeout: number;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: "the group's worker API key; shown to its owner only",
  })
  api_key: string | null;
}

export class ListEndpointGroupsResponseDto {
  @ApiProperty({ example: true })
  success: boolean;

  @ApiProperty({ type: [EndpointGroupRowDto] })
  results: EndpointGroupRowDto[];
}

export class EndpointGroupSuccessResponseDto {
  @ApiProperty({ example: true })
  success: boolean;
}
