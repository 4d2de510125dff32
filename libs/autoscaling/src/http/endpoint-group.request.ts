import { EndpointGroupOptions, EndpointGroupOptionsPatch } from '../domain/endpoint-group';
import { AutoscalingError } from '../domain/errors';

/** The wire (and command-line, and fixture) name of each option. */
export const OPTION_WIRE_NAMES = {
  minLoad: 'min_load',
  minColdLoad: 'min_cold_load',
  targetUtil: 'target_util',
  coldMult: 'cold_mult',
  coldWorkers: 'cold_workers',
  maxWorkers: 'max_workers',
  endpointName: 'endpoint_name',
  maxQueueTime: 'max_queue_time',
  targetQueueTime: 'target_queue_time',
  inactivityTimeout: 'inactivity_timeout',
} as const satisfies Readonly<Record<keyof EndpointGroupOptions, string>>;

type OptionWireName = (typeof OPTION_WIRE_NAMES)[keyof typeof OPTION_WIRE_NAMES];

/** A body (or fixture row) that may carry options under their wire names. */
export type WireOptions = { readonly [name in OptionWireName]?: unknown };

/**
 * The options present in a wire-shaped object (`{"min_load": 1.5, ...}`); null and
 * absent both mean "not given". Values are not checked here: the domain validates the
 * complete options (the request DTOs have already checked their JSON types).
 */
export function optionsPatchFromWire(wire: WireOptions): EndpointGroupOptionsPatch {
  const patch: EndpointGroupOptionsPatch = {};
  for (const [key, name] of Object.entries(OPTION_WIRE_NAMES)) {
    const value = wire[name];
    if (value !== undefined && value !== null) Object.assign(patch, { [key]: value });
  }
  return patch;
}

/**
 * The group id of `PUT`/`DELETE /endptjobs/:id`, which the body's `endptjob_id` (sent by
 * the public client) must repeat. An id too large for any group is well-formed and simply
 * not found.
 */
export function groupIdOf(rawId: string, bodyId: number | null | undefined): number {
  if (!/^\d+$/.test(rawId) || Number(rawId) < 1) {
    throw new AutoscalingError('invalid_args', 'Invalid request: id: must be a positive integer');
  }
  const id = Number(rawId);
  if (bodyId !== undefined && bodyId !== null && bodyId !== id) {
    throw new AutoscalingError(
      'invalid_args',
      `Invalid request: endptjob_id: ${bodyId} does not match the id in the path (${id})`,
    );
  }
  return id;
}
