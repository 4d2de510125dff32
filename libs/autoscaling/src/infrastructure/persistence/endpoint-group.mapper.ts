import {
  NewEndpointGroup,
  StoredEndpointGroup,
} from '../../application/ports/endpoint-group.repository.port';
import { EndpointGroupOptions, EndpointState } from '../../domain/endpoint-group';

/** A row of endpoint_groups as the pg driver returns it (double precision is a number). */
export interface EndpointGroupRow {
  id: number;
  user_id: number;
  team_id: number | null;
  endpoint_name: string | null;
  endpoint_state: EndpointState;
  min_load: number;
  min_cold_load: number;
  target_util: number;
  cold_mult: number;
  cold_workers: number;
  max_workers: number;
  max_queue_time: number;
  target_queue_time: number;
  inactivity_timeout: number;
  api_key_ciphertext: string;
  created_at: Date;
  updated_at: Date;
}

export const ENDPOINT_GROUP_COLUMNS = `id, user_id, team_id, endpoint_name, endpoint_state, min_load,
  min_cold_load, target_util, cold_mult, cold_workers, max_workers, max_queue_time,
  target_queue_time, inactivity_timeout, api_key_ciphertext, created_at, updated_at`;

export function toStoredEndpointGroup(row: EndpointGroupRow): StoredEndpointGroup {
  return {
    id: row.id,
    userId: row.user_id,
    teamId: row.team_id,
    state: row.endpoint_state,
    options: {
      minLoad: row.min_load,
      minColdLoad: row.min_cold_load,
      targetUtil: row.target_util,
      coldMult: row.cold_mult,
      coldWorkers: row.cold_workers,
      maxWorkers: row.max_workers,
      endpointName: row.endpoint_name,
      maxQueueTime: row.max_queue_time,
      targetQueueTime: row.target_queue_time,
      inactivityTimeout: row.inactivity_timeout,
    },
    apiKeyCiphertext: row.api_key_ciphertext,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The option columns in a fixed order, for INSERT and UPDATE parameters. */
export function optionParams(options: EndpointGroupOptions): unknown[] {
  return [
    options.endpointName,
    options.minLoad,
    options.minColdLoad,
    options.targetUtil,
    options.coldMult,
    options.coldWorkers,
    options.maxWorkers,
    options.maxQueueTime,
    options.targetQueueTime,
    options.inactivityTimeout,
  ];
}

export function insertParams(group: NewEndpointGroup): unknown[] {
  return [
    group.id,
    group.userId,
    group.state,
    group.apiKeyCiphertext,
    group.createdAt,
    ...optionParams(group.options),
    group.teamId ?? null,
  ];
}
