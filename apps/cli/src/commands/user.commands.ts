import { CommandKit, examples } from './command-kit';
import { setApiKey, showUser } from './user.handlers';

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
