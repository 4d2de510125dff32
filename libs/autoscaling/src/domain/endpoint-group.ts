import { AutoscalingError } from './errors';

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

/** Options a caller sets; an absent (undefined) option keeps its default or current value. */
export type EndpointGroupOptionsPatch = Partial<EndpointGroupOptions>;

/**
 * The documented defaults (docs/marketplace.md). inactivity_timeout has none documented: 600 s lets an endpoint
 * ride out ordinary gaps between bursts without a cold start, yet an abandoned endpoint
 * stops holding active workers within minutes. A number (not "never") keeps the stored
 * option an integer, as the wire types it, and reachable again by a later update.
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
  /** Who made it; in a team, the member. */
  readonly userId: number;
  /** The team that owns it (made in the team's context), or null: its user's own. */
  readonly teamId?: number | null;
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

/** Unknown ids and other users' groups get one answer: ids of others are never confirmed. */
export function endpointGroupNotFoundMessage(id: number): string {
  return `Endpoint group ${id} not found`;
}

function finite(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

function count(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= MAX_INTEGER_OPTION;
}

/**
 * The first rule a complete set of options breaks (`field: rule`), or null, including
 * the rules that tie two options together.
 */
export function endpointGroupOptionsProblem(options: EndpointGroupOptions): string | null {
  const numbers: Array<[string, number]> = [
    ['min_load', options.minLoad],
    ['min_cold_load', options.minColdLoad],
    ['target_util', options.targetUtil],
    ['cold_mult', options.coldMult],
    ['max_queue_time', options.maxQueueTime],
    ['target_queue_time', options.targetQueueTime],
  ];
  for (const [name, value] of numbers) {
    if (!finite(value)) return `${name}: must be a finite number`;
  }
  const counts = `must be an integer between 0 and ${MAX_INTEGER_OPTION}`;
  if (options.minLoad < 0) return 'min_load: must be >= 0';
  if (options.minColdLoad < 0) return 'min_cold_load: must be >= 0';
  if (!(options.targetUtil > 0 && options.targetUtil <= 1))
    return 'target_util: must be greater than 0 and at most 1.0';
  if (!(options.coldMult > 0)) return 'cold_mult: must be greater than 0';
  if (!count(options.coldWorkers)) return `cold_workers: ${counts}`;
  if (!count(options.maxWorkers)) return `max_workers: ${counts}`;
  if (options.coldWorkers > options.maxWorkers)
    return `cold_workers: must not exceed max_workers (${options.coldWorkers} > ${options.maxWorkers})`;
  if (
    options.endpointName !== null &&
    (typeof options.endpointName !== 'string' || !ENDPOINT_NAME_PATTERN.test(options.endpointName))
  )
    return `endpoint_name: must be ${ENDPOINT_NAME_RULE}`;
  if (!(options.maxQueueTime > 0)) return 'max_queue_time: must be greater than 0';
  if (!(options.targetQueueTime > 0)) return 'target_queue_time: must be greater than 0';
  if (options.targetQueueTime > options.maxQueueTime)
    return `target_queue_time: must not exceed max_queue_time (${options.targetQueueTime} > ${options.maxQueueTime})`;
  if (!count(options.inactivityTimeout)) return `inactivity_timeout: ${counts}`;
  return null;
}

/**
 * Checks a complete set of options. Runs on every create and on the merged result of
 * every update, so a partial update can never leave a group in a state creation would
 * have refused.
 */
export function validateEndpointGroupOptions(options: EndpointGroupOptions): EndpointGroupOptions {
  const problem = endpointGroupOptionsProblem(options);
  if (problem) throw new AutoscalingError('invalid_args', `Invalid request: ${problem}`);
  return options;
}

/** Overlays the options that were given; undefined means "keep". */
export function mergeEndpointGroupOptions(
  base: EndpointGroupOptions,
  patch: EndpointGroupOptionsPatch,
): EndpointGroupOptions {
  const merged: EndpointGroupOptions = { ...base };
  for (const key of Object.keys(base) as Array<keyof EndpointGroupOptions>) {
    if (patch[key] !== undefined) Object.assign(merged, { [key]: patch[key] });
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
  if (state !== undefined && !isEndpointState(state)) {
    throw new AutoscalingError(
      'invalid_args',
      `Invalid request: endpoint_state: must be one of ${ENDPOINT_STATES.join(', ')}`,
    );
  }
  return {
    options: validateEndpointGroupOptions(mergeEndpointGroupOptions(group.options, patch)),
    state: state ?? group.state,
  };
}

/**
 * Whether the caller's context owns the group (docs/teams.md "Ownership"): in a team's
 * context, every group of the team, whoever made it; in the personal context, the user's
 * own groups outside any team.
 */
export function ownedIn(group: EndpointGroup, userId: number, teamId: number | null): boolean {
  if (teamId !== null) return group.teamId === teamId;
  return group.userId === userId && (group.teamId ?? null) === null;
}
