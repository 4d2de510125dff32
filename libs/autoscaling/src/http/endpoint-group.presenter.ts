import { EndpointGroupWithKey } from '../application/list-endpoint-groups.use-case';
import { EndpointGroupRowDto } from './endpoint-group.response.dto';

/** One row of `show endpoints`: the fields the public client's SDK reads, flat. */
export function presentEndpointGroup({ group, apiKey }: EndpointGroupWithKey): EndpointGroupRowDto {
  const { options } = group;
  return {
    id: group.id,
    endpoint_name: options.endpointName,
    user_id: group.userId,
    created_at: Math.floor(group.createdAt.getTime() / 1000),
    endpoint_state: group.state,
    min_load: options.minLoad,
    min_cold_load: options.minColdLoad,
    target_util: options.targetUtil,
    cold_mult: options.coldMult,
    cold_workers: options.coldWorkers,
    max_workers: options.maxWorkers,
    max_queue_time: options.maxQueueTime,
    target_queue_time: options.targetQueueTime,
    inactivity_timeout: options.inactivityTimeout,
    api_key: apiKey,
  };
}
