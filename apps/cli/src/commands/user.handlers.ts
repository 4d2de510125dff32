import { API_KEY_FILE, SESSION_KEY_FILE } from '../config/config-store';
import { API_KEY_ENV } from '../config/key-resolution';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import { renderUser } from './user.render';

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

export async function setApiKey(context: CommandContext, given: string | undefined): Promise<void> {
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

export async function showUser(context: CommandContext): Promise<void> {
  const user = await context.api().get('/api/v0/users/current');
  // The api does not answer with a key; should one ever appear, it is not printed.
  const { api_key: _hidden, ...visible } = user as typeof user & { api_key?: unknown };
  context.output(visible, () => renderUser(visible));
}
