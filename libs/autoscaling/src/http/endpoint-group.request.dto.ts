import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional } from 'class-validator';
import { EndpointState } from '../domain/endpoint-group';
import {
  ClientTagField,
  EndpointNameOption,
  EndpointStateOption,
  IntegerOption,
  NumberOption,
} from './endpoint-group-fields';

/** The options shared by create and update, with their wire names. */
class EndpointGroupOptionsDto {
  @ClientTagField('client identifier; the public client sends "me"', 'me')
  client_id?: string | null;

  @NumberOption('minimum floor load, performance units per second', 0.0)
  min_load?: number | null;

  @NumberOption('minimum floor load also allowing handling by cold workers', 0.0)
  min_cold_load?: number | null;

  @NumberOption('target capacity utilization, a fraction, greater than 0 and at most 1.0', 0.9)
  target_util?: number | null;

  @NumberOption('cold capacity target as a multiple of the hot capacity target', 2.5)
  cold_mult?: number | null;

  @IntegerOption('workers kept cold when there is no load; at most max_workers', 5)
  cold_workers?: number | null;

  @IntegerOption('maximum workers of the group', 20)
  max_workers?: number | null;

  @EndpointNameOption()
  endpoint_name?: string | null;

  @NumberOption('maximum seconds a request may be queued on each worker', 30.0)
  max_queue_time?: number | null;

  @NumberOption('target seconds for the queue to be cleared; at most max_queue_time', 10.0)
  target_queue_time?: number | null;

  @IntegerOption('seconds without traffic before scaling to zero active workers', 600)
  inactivity_timeout?: number | null;

  @ClientTagField('autoscaler instance; the public client sends "prod"', 'prod')
  autoscaler_instance?: string | null;
}

/** `create endpoint`: all 12 keys, unset ones as null (null = the default). */
export class CreateEndpointGroupRequestDto extends EndpointGroupOptionsDto {}

/** `update endpoint ID`: all 14 keys, unset ones as null (null = unchanged). */
export class UpdateEndpointGroupRequestDto extends EndpointGroupOptionsDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'must match the path id' })
  @IsOptional()
  @IsInt({ message: '$property must be an integer' })
  endptjob_id?: number | null;

  @EndpointStateOption()
  endpoint_state?: EndpointState | null;
}

/** `delete endpoint ID`: `{"client_id": "me", "endptjob_id": ID}`. */
export class DeleteEndpointGroupRequestDto {
  @ClientTagField('client identifier; the public client sends "me"', 'me')
  client_id?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'must match the path id' })
  @IsOptional()
  @IsInt({ message: '$property must be an integer' })
  endptjob_id?: number | null;
}
