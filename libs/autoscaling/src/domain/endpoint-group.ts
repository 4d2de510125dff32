import { AutoscalingError } from './errors';
import { DomainError } from '@app/platform';

export const ENDPOINT_STATES = ['active', 'suspended', 'stopped'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];

/** The autoscaling options of a group (spec: "Endpoint group (options of its creation)"). */
export interface EndpointGroupOptions {
  minLoad: number;
  minColdLoad: number;
  targetUtil: number;
  coldMult: number;
  coldWorkers: number;
  maxWorkers: number;
  endpointName: string | null;
  maxQueueTime: number;
  targetQueueTime: number;
  inactivityTimeout: number;
}

/** The wire (and command-line) name of each option. */
export const OPTION_WIRE_NAMES: Readonly<Record<keyof EndpointGroupOptions, string>> = {
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
};

/**
 * The options present in a wire-shaped object (`{"min_load": 1.5, ...}`); null and
 * absent both mean "not given". Values are not checked here: validation sees the result.
 */
export function optionsPatchFromWire(wire: Record<string, unknown>): EndpointGroupOptionsPatch {
  const patch: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(OPTION_WIRE_NAMES)) {
    const value = wire[name];
    if (value !== undefined && value !== null) patch[key] = value;
  }
  return patch as EndpointGroupOptionsPatch;
}

/** Options a caller sets; an absent (undefined) option keeps its default or current value. */
export type EndpointGroupOptionsPatch = Partial<EndpointGroupOptions>;

/**
 * The spec's defaults. inactivity_timeout has none in the spec: 600 s lets an endpoint
 * ride out ordinary gaps between bursts without a cold start, yet an abandoned endpoint
 * stops holding active workers within minutes. A number (not "never") keeps the stored
 * option an integer, as the spec types it, and reachable again by a later update.
 */
export const DEFAULT_ENDPOINT_GROUP_OPTIONS: Readonly<EndpointGroupOptions> = Object.freeze({
  minLoad: 0.0,
  minColdLoad: 0.0,
  targetUtil: 0.9,
  coldMult: 2.5,
  coldWorkers: 5,
  maxWorkers: 20,
  endpointName: null,
  maxQueueTime: 30.0,
  targetQueueTime: 10.0,
  inactivityTimeout: 600,
});

export interface EndpointGroup {
  readonly id: number;
  readonly userId: number;
  readonly options: EndpointGroupOptions;
  readonly state: EndpointState;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Integer options are stored in PostgreSQL integer columns. */
export const MAX_INTEGER_OPTION = 2_147_483_647;
export const MAX_GROUP_ID = 2_147_483_647;
/**
 * Endpoint names are model and deployment names as people write them (`llama-3.1-8b`,
 * `meta/llama:3.1`): 1-255 characters, each an ASCII letter or digit or one of `. _ - / :`
 * (docs/marketplace.md). The name is an opaque label: never a path, URL segment or key.
 */
export const ENDPOINT_NAME_PATTERN = /^[A-Za-z0-9._:/-]{1,255}$/;
export const ENDPOINT_NAME_RULE = '1-255 characters of letters, digits, ., _, -, / or :';

function invalid(message: string): DomainError {
  return new AutoscalingError('invalid_args', `Invalid request: ${message}`);
}

function requireFinite(name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw invalid(`${name}: must be a finite number`);
}

function requireCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_INTEGER_OPTION)
    throw invalid(`${name}: must be an integer between 0 and ${MAX_INTEGER_OPTION}`);
}

/**
 * Checks a complete set of options, including the rules that tie two options together.
 * Runs on every create and on the merged result of every update, so a partial update can
 * never leave a group in a state creation would have refused.
 */
export function validateEndpointGroupOptions(options: EndpointGroupOptions): EndpointGroupOptions {
  const numbers: Array<[string, number]> = [
    ['min_load', options.minLoad],
    ['min_cold_load', options.minColdLoad],
    ['target_util', options.targetUtil],
    ['cold_mult', options.coldMult],
    ['max_queue_time', options.maxQueueTime],
    ['target_queue_time', options.targetQueueTime],
  ];
  for (const [name, value] of numbers) requireFinite(name, value);
  if (options.minLoad < 0) throw invalid('min_load: must be >= 0');
  if (options.minColdLoad < 0) throw invalid('min_cold_load: must be >= 0');
  if (!(options.targetUtil > 0 && options.targetUtil <= 1))
    throw invalid('target_util: must be greater than 0 and at most 1.0');
  if (!(options.coldMult > 0)) throw invalid('cold_mult: must be greater than 0');
  requireCount('cold_workers', options.coldWorkers);
  requireCount('max_workers', options.maxWorkers);
  if (options.coldWorkers > options.maxWorkers)
    throw invalid(
      `cold_workers: must not exceed max_workers (${options.coldWorkers} > ${options.maxWorkers})`,
    );
  if (
    options.endpointName !== null &&
    (typeof options.endpointName !== 'string' || !ENDPOINT_NAME_PATTERN.test(options.endpointName))
  )
    throw invalid(`endpoint_name: must be ${ENDPOINT_NAME_RULE}`);
  if (!(options.maxQueueTime > 0)) throw invalid('max_queue_time: must be greater than 0');
  if (!(options.targetQueueTime > 0)) throw invalid('target_queue_time: must be greater than 0');
  if (options.targetQueueTime > options.maxQueueTime)
    throw invalid(
      `target_queue_time: must not exceed max_queue_time (${options.targetQueueTime} > ${options.maxQueueTime})`,
    );
  requireCount('inactivity_timeout', options.inactivityTimeout);
  return options;
}

/** Overlays the options that were given; undefined means "keep". */
export function mergeEndpointGroupOptions(
  base: EndpointGroupOptions,
  patch: EndpointGroupOptionsPatch,
): EndpointGroupOptions {
  const merged = { ...base };
  for (const key of Object.keys(base) as Array<keyof EndpointGroupOptions>) {
    const value = patch[key];
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

export function isEndpointState(value: unknown): value is EndpointState {
  return typeof value === 'string' && (ENDPOINT_STATES as readonly string[]).includes(value);
}

/** A new group: defaults overlaid with the caller's options, validated as a whole. */
export function newEndpointGroupOptions(patch: EndpointGroupOptionsPatch): EndpointGroupOptions {
  return validateEndpointGroupOptions(
    mergeEndpointGroupOptions(DEFAULT_ENDPOINT_GROUP_OPTIONS, patch),
  );
}

/** Whether an update would leave the group exactly as it is (e.g. an all-null body). */
export function endpointGroupUnchanged(
  group: EndpointGroup,
  next: { options: EndpointGroupOptions; state: EndpointState },
): boolean {
  if (next.state !== group.state) return false;
  return (Object.keys(group.options) as Array<keyof EndpointGroupOptions>).every((key) =>
    Object.is(group.options[key], next.options[key]),
  );
}

/** An updated group: the current options overlaid with the change, validated as a whole. */
export function updatedEndpointGroup(
  group: EndpointGroup,
  patch: EndpointGroupOptionsPatch,
  state: EndpointState | undefined,
): { options: EndpointGroupOptions; state: EndpointState } {
  if (state !== undefined && !isEndpointState(state))
    throw invalid(`endpoint_state: must be one of ${ENDPOINT_STATES.join(', ')}`);
  return {
    options: validateEndpointGroupOptions(mergeEndpointGroupOptions(group.options, patch)),
    state: state ?? group.state,
  };
}
