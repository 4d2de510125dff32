import { Command, CommanderError, Option } from 'commander';
import { registerAccessCommands } from './commands/access.commands';
import { registerTeamCommands } from './commands/team.commands';
import { registerBudgetCommands } from './commands/budgets.commands';
import { registerWebhookCommands } from './commands/webhooks.commands';
import { registerChargesCommands } from './commands/charges.commands';
import { CommandKit, examples } from './commands/command-kit';
import { registerCompletionCommand } from './commands/completion.commands';
import { registerStatementCommand } from './commands/statement.commands';
import { registerEndpointCommands } from './commands/endpoints.commands';
import { registerTfaCommands } from './commands/tfa.commands';
import { registerUserCommands } from './commands/user.commands';
import { registerVolumeCommands } from './commands/volumes.commands';
import { DEFAULT_URL, URL_ENV } from './config/api-url';
import { API_KEY_ENV } from './config/key-resolution';
import { ApiError, CliFailure, UsageError } from './errors';
import { renderApiError } from './error-report';
import { DEFAULT_RETRY_POLICY } from './http/retry-policy';
import { Io } from './io';
import { expandMultiLetterFlags } from './options/short-flags';
import { numberOption } from './options/validation';

export function buildProgram(io: Io): Command {
  const program = new Command('gpumkt')
    .description('Command-line client of the GPU marketplace api (vastai-style grammar)')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .option('--url <url>', `api address (default: $${URL_ENV}, else ${DEFAULT_URL})`)
    .addOption(
      new Option(
        '--retry <n>',
        'retries of a request answered 429/502/503/504 or not answered, with exponential backoff ' +
          'that honours Retry-After; 0 disables',
      )
        .argParser(numberOption({ integer: true, min: 0, max: 20 }))
        .default(DEFAULT_RETRY_POLICY.retries),
    )
    .option(
      '--raw',
      'print exactly one JSON document on stdout, api errors as JSON on stderr ' +
        '(default: off, human-readable output)',
    )
    .option(
      '--explain',
      "print each request's method, URL, query and body on stderr, the key redacted (default: off)",
    )
    .option(
      '--api-key <key>',
      `API key (default: $${API_KEY_ENV}, else the 2FA session key, else the key saved by "set api-key")`,
    )
    .addHelpText(
      'after',
      '\nGlobal options go before or after the command. Exit codes: 0 success, 1 api or ' +
        'command failure, 2 usage error.\nExamples:\n  $ gpumkt set api-key KEY\n  $ gpumkt show user\n' +
        '  $ gpumkt show invoices --charges -s 2025-11-01 --raw\n',
    );
  const kit = new CommandKit(program, io);
  registerUserCommands(kit);
  registerChargesCommands(kit);
  registerStatementCommand(kit);
  registerVolumeCommands(kit);
  registerEndpointCommands(kit);
  registerTfaCommands(kit);
  registerAccessCommands(kit);
  registerTeamCommands(kit);
  registerBudgetCommands(kit);
  registerWebhookCommands(kit);
  registerCompletionCommand(kit);
  addGroupExamples(program);
  return program;
}

/** Examples for the verbs that only group commands, so every help screen ends with some. */
const GROUP_EXAMPLES: Record<string, string[]> = {
  set: ['gpumkt set api-key 3f9c...e1'],
  show: [
    'gpumkt show user',
    'gpumkt show invoices --charges -s 2025-11-01 -e 2025-11-05',
    'gpumkt show endpoints --raw',
  ],
  unlist: ['gpumkt unlist volume 5012'],
  create: ['gpumkt create endpoint --endpoint_name llama-prod --target_util 0.8'],
  update: ['gpumkt update endpoint 42 --max_workers 30'],
  delete: ['gpumkt delete endpoint 42'],
  tfa: ['gpumkt tfa status', 'gpumkt tfa login -t totp -c 123456'],
};

function addGroupExamples(program: Command): void {
  for (const command of program.commands) {
    const lines = GROUP_EXAMPLES[command.name()];
    if (lines) command.addHelpText('after', examples(...lines));
  }
}

/** Runs one invocation and returns the exit code; never throws. */
export async function run(args: readonly string[], io: Io): Promise<number> {
  const program = buildProgram(io);
  const raw = args.includes('--raw');
  try {
    await program.parseAsync(expandMultiLetterFlags(args), { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return 2;
    }
    if (error instanceof ApiError) {
      io.stderr.write(renderApiError(error, raw, io.now()));
      return 1;
    }
    if (error instanceof UsageError) {
      io.stderr.write(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CliFailure) {
      io.stderr.write(`Error: ${error.message}\n`);
      return 1;
    }
    // A bug, not a user mistake: one line by default, the stack on request.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`Error: ${message}\n`);
    if (io.env.GPUMKT_DEBUG && error instanceof Error && error.stack)
      io.stderr.write(`${error.stack}\n`);
    return 1;
  }
}
