import { Command, InvalidArgumentError, Option } from 'commander';
import { choiceOption, numberOption } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import {
  createEndpoint,
  deleteEndpoint,
  ENDPOINT_OPTIONS,
  ENDPOINT_STATES,
  EndpointOptionSpec,
  showEndpoints,
  updateEndpoint,
} from './endpoints.handlers';

/** The api's rule (docs/marketplace.md), checked here so a typo costs no request. */
const ENDPOINT_NAME = /^[A-Za-z0-9._:/-]{1,255}$/;

function endpointNameOption(value: string): string {
  if (!ENDPOINT_NAME.test(value)) {
    throw new InvalidArgumentError('Use 1 to 255 letters, digits, ., _, -, / or :.');
  }
  return value;
}

/** The default as docs/marketplace.md writes it: 0.0 and 30.0 for numbers, 5 for integers. */
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
