import { ApiSchema } from '@app/api-client';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { NumberRule } from '../options/validation';
import { renderEndpointGroups } from './endpoints.render';

/** An option of create and update endpoint: a field of both request bodies. */
export type EndpointField = keyof ApiSchema<'CreateEndpointGroupRequestDto'> &
  keyof ApiSchema<'UpdateEndpointGroupRequestDto'>;

export interface EndpointOptionSpec {
  name: EndpointField;
  placeholder: string;
  help: string;
  rule?: NumberRule;
  /** The documented default (docs/marketplace.md), sent by create when the option is not given. */
  createDefault: number | string | null;
  /** How help shows a null default. */
  nullDefaultText?: string;
}

/** The endpoint group options (docs/marketplace.md), in wire order. */
export const ENDPOINT_OPTIONS: readonly EndpointOptionSpec[] = [
  {
    name: 'min_load',
    placeholder: 'load',
    help: 'minimum floor load in performance units per second (tokens/s for language models)',
    rule: { min: 0 },
    createDefault: 0.0,
  },
  {
    name: 'min_cold_load',
    placeholder: 'load',
    help: 'minimum floor load in performance units per second, also served by cold workers',
    rule: { min: 0 },
    createDefault: 0.0,
  },
  {
    name: 'target_util',
    placeholder: 'fraction',
    help: 'target capacity utilization, a fraction above 0 and at most 1.0',
    rule: { greaterThan: 0, max: 1.0 },
    createDefault: 0.9,
  },
  {
    name: 'cold_mult',
    placeholder: 'factor',
    help: 'cold/stopped capacity target as a multiple of the hot capacity target',
    rule: { greaterThan: 0 },
    createDefault: 2.5,
  },
  {
    name: 'cold_workers',
    placeholder: 'n',
    help: 'minimum number of workers kept cold when there is no load (integer)',
    rule: { integer: true, min: 0 },
    createDefault: 5,
  },
  {
    name: 'max_workers',
    placeholder: 'n',
    help: 'maximum number of workers of the group (integer)',
    rule: { integer: true, min: 0 },
    createDefault: 20,
  },
  {
    name: 'endpoint_name',
    placeholder: 'name',
    help: 'deployment endpoint name; several groups may share one (1-255 letters, digits, ., _, -, / and :)',
    createDefault: null,
    nullDefaultText: 'none',
  },
  {
    name: 'max_queue_time',
    placeholder: 'seconds',
    help: 'maximum seconds a request may be queued on each worker',
    rule: { greaterThan: 0 },
    createDefault: 30.0,
  },
  {
    name: 'target_queue_time',
    placeholder: 'seconds',
    help: 'target seconds for the queue to be cleared',
    rule: { greaterThan: 0 },
    createDefault: 10.0,
  },
  {
    name: 'inactivity_timeout',
    placeholder: 'seconds',
    help: 'seconds without traffic before the endpoint may scale to zero active workers (integer)',
    rule: { integer: true, min: 0 },
    createDefault: null,
    nullDefaultText: "the server's (the spec leaves it open)",
  },
];

export const ENDPOINT_STATES = ['active', 'suspended', 'stopped'] as const;
/** Create body: every option, its documented default where not given (12 keys, wire order). */
export function createEndpointBody(
  options: Record<string, unknown>,
): ApiSchema<'CreateEndpointGroupRequestDto'> {
  const body: Record<string, unknown> = { client_id: 'me' };
  for (const spec of ENDPOINT_OPTIONS) body[spec.name] = options[spec.name] ?? spec.createDefault;
  const cold = body.cold_workers as number;
  const max = body.max_workers as number;
  if (cold > max) {
    throw new UsageError(`--cold_workers (${cold}) must not exceed --max_workers (${max})`);
  }
  const target = body.target_queue_time as number | null;
  const maxQueue = body.max_queue_time as number | null;
  if (target !== null && maxQueue !== null && target > maxQueue) {
    throw new UsageError(
      `--target_queue_time (${target}) must not exceed --max_queue_time (${maxQueue})`,
    );
  }
  body.autoscaler_instance = 'prod';
  return body as ApiSchema<'CreateEndpointGroupRequestDto'>;
}

/** Update body: every key present, null for "leave unchanged" (14 keys, wire order). */
export function updateEndpointBody(
  id: number,
  options: Record<string, unknown>,
): ApiSchema<'UpdateEndpointGroupRequestDto'> {
  const body: Record<string, unknown> = { client_id: 'me', endptjob_id: id };
  for (const spec of ENDPOINT_OPTIONS) {
    body[spec.name] = options[spec.name] ?? null;
    if (spec.name === 'endpoint_name') body.endpoint_state = options.endpoint_state ?? null;
  }
  body.autoscaler_instance = 'prod';
  return body as ApiSchema<'UpdateEndpointGroupRequestDto'>;
}

export async function createEndpoint(
  context: CommandContext,
  options: Record<string, unknown>,
): Promise<void> {
  const response = await context.api().post('/api/v0/endptjobs/', {
    body: createEndpointBody(options),
  });
  context.output(response, () => `Created endpoint group ${String(response.result)}.`);
}

export async function updateEndpoint(
  context: CommandContext,
  id: number,
  options: Record<string, unknown>,
): Promise<void> {
  const body = updateEndpointBody(id, options);
  const changed = Object.keys(options).length;
  if (changed === 0)
    throw new UsageError('nothing to change: give at least one option, see --help');
  const response = await context.api().put('/api/v0/endptjobs/{id}/', {
    params: { path: { id } },
    body,
  });
  context.output(response, () => `Updated endpoint group ${id}.`);
}

export async function deleteEndpoint(context: CommandContext, id: number): Promise<void> {
  const response = await context.api().delete('/api/v0/endptjobs/{id}/', {
    params: { path: { id } },
    body: { client_id: 'me', endptjob_id: id },
  });
  context.output(response, () => `Deleted endpoint group ${id}.`);
}

export async function showEndpoints(context: CommandContext): Promise<void> {
  const response = await context.api().get('/api/v0/endptjobs/');
  context.output(response, () => renderEndpointGroups(response.results ?? []));
}
