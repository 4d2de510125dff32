import { Command, InvalidArgumentError, Option } from 'commander';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { formatCell, formatTimestamp } from '../output/format';
import { renderTable } from '../output/table';
import { choiceOption, numberOption, NumberRule } from '../options/validation';
import { CommandKit, examples } from './command-kit';

interface EndpointOptionSpec {
  name: string;
  placeholder: string;
  help: string;
  rule?: NumberRule;
  /** The spec's default, sent by create when the option is not given. */
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
/** The api's rule (docs/marketplace.md), checked here so a typo costs no request. */
const ENDPOINT_NAME = /^[A-Za-z0-9._:/-]{1,255}$/;

function endpointNameOption(value: string): string {
  if (!ENDPOINT_NAME.test(value)) {
    throw new InvalidArgumentError('Use 1 to 255 letters, digits, ., _, -, / or :.');
  }
  return value;
}

/** The default as the spec writes it: 0.0 and 30.0 for numbers, 5 for integers. */
function shownDefault(spec: EndpointOptionSpec): string {
  const value = spec.createDefault;
  if (value === null) return spec.nullDefaultText ?? 'none';
  if (typeof value === 'number' && !spec.rule?.integer && Number.isInteger(value)) {
    return value.toFixed(1);
  }
  return String(value);
}

function addEndpointOptions(command: Command, withDefaults: boolean): Command {
  for (const spec of ENDPOINT_OPTIONS) {
    const shown = shownDefault(spec);
    const option = new Option(
      `--${spec.name} <${spec.placeholder}>`,
      withDefaults ? `${spec.help} (default: ${shown})` : `${spec.help} (default: unchanged)`,
    ).argParser<number | string>(spec.rule ? numberOption(spec.rule) : endpointNameOption);
    command.addOption(option);
  }
  return command;
}

/** Create body: every option, the spec's default where not given (12 keys, wire order). */
export function createEndpointBody(options: Record<string, unknown>): Record<string, unknown> {
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
  return body;
}

/** Update body: every key present, null for "leave unchanged" (14 keys, wire order). */
export function updateEndpointBody(
  id: number,
  options: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = { client_id: 'me', endptjob_id: id };
  for (const spec of ENDPOINT_OPTIONS) {
    body[spec.name] = options[spec.name] ?? null;
    if (spec.name === 'endpoint_name') body.endpoint_state = options.endpoint_state ?? null;
  }
  body.autoscaler_instance = 'prod';
  return body;
}

const idArgument = numberOption({ integer: true, min: 1 });

export function registerEndpointCommands(kit: CommandKit): void {
  addEndpointOptions(
    kit
      .verb('create', 'Create resources')
      .command('endpoint')
      .description(
        'Create an endpoint group (it manages autoscaling groups); all options are optional',
      ),
    true,
  )
    .addHelpText(
      'after',
      examples(
        'gpumkt create endpoint --endpoint_name llama-prod',
        'gpumkt create endpoint --endpoint_name llama-prod --target_util 0.8 --max_workers 40 --min_load 100',
      ),
    )
    .action(kit.action(createEndpoint));

  kit
    .verb('show', 'Show account data')
    .command('endpoints')
    .description('List your endpoint groups (the group API keys only appear with --raw)')
    .addHelpText('after', examples('gpumkt show endpoints', 'gpumkt show endpoints --raw'))
    .action(kit.action(showEndpoints));

  addEndpointOptions(
    kit
      .verb('update', 'Change resources')
      .command('endpoint')
      .description('Change an endpoint group; options not given stay unchanged')
      .argument('<id>', 'endpoint group id', idArgument)
      .addOption(
        new Option(
          '--endpoint_state <state>',
          'active, suspended or stopped (default: unchanged)',
        ).argParser(choiceOption(ENDPOINT_STATES)),
      ),
    false,
  )
    .addHelpText(
      'after',
      examples(
        'gpumkt update endpoint 42 --max_workers 30',
        'gpumkt update endpoint 42 --endpoint_state suspended',
      ),
    )
    .action(kit.action(updateEndpoint));

  kit
    .verb('delete', 'Delete resources')
    .command('endpoint')
    .description('Delete an endpoint group')
    .argument('<id>', 'endpoint group id', idArgument)
    .addHelpText('after', examples('gpumkt delete endpoint 42'))
    .action(kit.action(deleteEndpoint));
}

async function createEndpoint(
  context: CommandContext,
  options: Record<string, unknown>,
): Promise<void> {
  const response = await context.api().request<{ result?: unknown; id?: unknown }>({
    method: 'POST',
    path: '/api/v0/endptjobs/',
    body: createEndpointBody(options),
  });
  context.output(
    response,
    () => `Created endpoint group ${String(response.result ?? response.id)}.`,
  );
}

async function updateEndpoint(
  context: CommandContext,
  id: number,
  options: Record<string, unknown>,
): Promise<void> {
  const body = updateEndpointBody(id, options);
  const changed = Object.keys(options).length;
  if (changed === 0)
    throw new UsageError('nothing to change: give at least one option, see --help');
  const response = await context.api().request({
    method: 'PUT',
    path: `/api/v0/endptjobs/${id}/`,
    body,
  });
  context.output(response, () => `Updated endpoint group ${id}.`);
}

async function deleteEndpoint(context: CommandContext, id: number): Promise<void> {
  const response = await context.api().request({
    method: 'DELETE',
    path: `/api/v0/endptjobs/${id}/`,
    body: { client_id: 'me', endptjob_id: id },
  });
  context.output(response, () => `Deleted endpoint group ${id}.`);
}

const LIST_COLUMNS: readonly [string, string][] = [
  ['id', 'id'],
  ['endpoint_name', 'name'],
  ['endpoint_state', 'state'],
  ['min_load', 'min_load'],
  ['min_cold_load', 'min_cold_load'],
  ['target_util', 'target_util'],
  ['cold_mult', 'cold_mult'],
  ['cold_workers', 'cold_workers'],
  ['max_workers', 'max_workers'],
  ['max_queue_time', 'max_queue_time'],
  ['target_queue_time', 'target_queue_time'],
  ['inactivity_timeout', 'inactivity_timeout'],
  ['created_at', 'created'],
];

export function renderEndpointGroups(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return 'No endpoint groups.\n';
  return renderTable(
    LIST_COLUMNS.map(([, header]) => ({ header })),
    rows.map((row) =>
      LIST_COLUMNS.map(([field]) =>
        field === 'created_at' ? formatTimestamp(row[field]) : formatCell(row[field]),
      ),
    ),
  );
}

async function showEndpoints(context: CommandContext): Promise<void> {
  const response = await context.api().request<{
    success?: boolean;
    msg?: string;
    results?: Record<string, unknown>[];
  }>({ method: 'GET', path: '/api/v0/endptjobs/' });
  context.output(response, () => renderEndpointGroups(response.results ?? []));
}
