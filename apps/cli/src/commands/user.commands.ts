import { API_KEY_FILE, SESSION_KEY_FILE } from '../config/config-store';
import { API_KEY_ENV } from '../config/key-resolution';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { formatCell } from '../output/format';
import { renderKeyValues } from '../output/table';
import { CommandKit, examples } from './command-kit';

const MONEY_FIELDS = new Set(['credit', 'balance', 'balance_threshold']);

export function registerUserCommands(kit: CommandKit): void {
  kit
    .verb('set', 'Save local settings')
    .command('api-key')
    .description(
      'Save your API key (mode 0600) for later commands. It replaces a stored 2FA session key, ' +
        'which belonged to the previous key.',
    )
    .argument(
      '[key]',
      'the API key, e.g. from the web console; "-" or nothing reads it from standard input ' +
        '(asked without echo on a terminal), which keeps it out of the shell history and ' +
        "npm's command echo",
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt set api-key                        # asks for it, input hidden',
        'pass show gpumkt | gpumkt set api-key -',
        'gpumkt set api-key 3f9c...e1',
      ),
    )
    .action(kit.action(setApiKey));

  kit
    .verb('show', 'Show account data')
    .command('user')
    .description('Show your account (the API key is never printed)')
    .option('-q, --quiet', 'accepted for compatibility with vastai; no effect (default: off)')
    .addHelpText('after', examples('gpumkt show user', 'gpumkt show user --raw'))
    .action(kit.action(showUser));
}

/**
 * The key from the argument, else from standard input: a hidden prompt on a terminal, the
 * first line of a pipe or file otherwise.
 */
async function keyFrom(context: CommandContext, given: string | undefined): Promise<string> {
  if (given !== undefined && given !== '-') return given;
  const { io } = context;
  if (io.stdinIsTTY) return (await io.readHidden('API key (input hidden): ')) ?? '';
  const piped = (await io.readAll()).split(/\r?\n/).find((line) => line.trim() !== '');
  if (piped === undefined) {
    throw new UsageError(
      'no API key on standard input: pass it as an argument, pipe it in, or run on a terminal to be asked',
    );
  }
  return piped;
}

async function setApiKey(context: CommandContext, given: string | undefined): Promise<void> {
  const key = await keyFrom(context, given);
  if (key.trim() === '') throw new UsageError('the API key must not be empty');
  const path = context.store.write(API_KEY_FILE, key.trim());
  const removedSession = context.store.remove(SESSION_KEY_FILE);
  if (context.raw) {
    context.printJson({ saved: path, session_key_removed: removedSession });
  } else {
    context.print(`Your API key has been saved in ${path}`);
  }
  if (removedSession) context.note('Removed the stored 2FA session key of the previous key.');
  if (context.io.env[API_KEY_ENV]) {
    context.note(`Warning: $${API_KEY_ENV} is set and takes precedence over the saved key.`);
  }
}

async function showUser(context: CommandContext): Promise<void> {
  const user = await context.api().request({ method: 'GET', path: '/api/v0/users/current' });
  const { api_key: _hidden, ...visible } = user;
  context.output(visible, () =>
    renderKeyValues(
      Object.entries(visible).map(([field, value]) => [
        field,
        MONEY_FIELDS.has(field) && typeof value === 'number' ? value.toFixed(2) : formatCell(value),
      ]),
    ),
  );
}
