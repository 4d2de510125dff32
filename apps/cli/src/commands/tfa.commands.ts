import { Command, InvalidArgumentError, Option } from 'commander';
import { choiceOption, numberOption, parseBooleanWord } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import {
  activate,
  authNew,
  deleteMethod,
  devices,
  events,
  login,
  logout,
  regenCodes,
  resendSms,
  sendEmail,
  sendSms,
  status,
  totpSetup,
  update,
} from './tfa.handlers';

const methodId = numberOption({ integer: true, min: 1 });

/** The api serves at most this many events per page. */
const EVENTS_MAX_LIMIT = 500;

/** The api's limit on method labels (docs/cli.md), checked before anything is sent. */
export const LABEL_MAX_LENGTH = 30;

export function labelOption(value: string): string {
  const length = [...value].length;
  if (length === 0 || length > LABEL_MAX_LENGTH) {
    throw new InvalidArgumentError(
      `Use 1 to ${LABEL_MAX_LENGTH} characters (this one has ${length}).`,
    );
  }
  return value;
}

/**
 * The verification options of login, delete, regen-codes and auth-new. `methodTypeDefault`
 * says what happens without -t, which differs: the api assumes sms, auth-new sends email.
 */
function addVerifyOptions(command: Command, methodTypeDefault: string): Command {
  return command
    .option(
      '-c, --code <code>',
      'the 6-digit code from your SMS, email or authenticator app (this or -bc is required)',
    )
    .option(
      '--backup-code <code>',
      'a backup code XXXX-XXXX-XXXX instead of a code, short form -bc (this or -c is required)',
    )
    .addOption(
      new Option(
        '-t, --method-type <type>',
        `how the code was obtained: email, sms or totp (default: ${methodTypeDefault})`,
      ).argParser(choiceOption(['email', 'sms', 'totp'] as const)),
    )
    .addOption(
      new Option(
        '--method-id <id>',
        'the method id, when several methods share a type, short form -id ' +
          '(default: the only method of that type)',
      )
        .argParser(methodId)
        .conflicts('methodType'),
    )
    .option(
      '-s, --secret <secret>',
      'the secret printed by send-sms/send-email (required with an sms or email code)',
    );
}

/** What the api assumes when tfa_method is left out. */
const API_METHOD_DEFAULT = 'sms, or email when -s is the secret of an emailed code';

export function registerTfaCommands(kit: CommandKit): void {
  const tfa = kit.program
    .command('tfa')
    .description('Two-factor authentication: methods, codes, backup codes and sessions');

  tfa
    .command('status')
    .description('Show whether 2FA is on, your methods and how many backup codes are left')
    .addHelpText('after', examples('gpumkt tfa status'))
    .action(kit.action(status));

  tfa
    .command('send-email')
    .description('Email a 6-digit code; prints the secret to pass back with it')
    .addHelpText('after', examples('gpumkt tfa send-email'))
    .action(kit.action(sendEmail));

  tfa
    .command('send-sms')
    .description('Text a 6-digit code; prints the secret to pass back with it')
    .option(
      '-p, --phone-number <phone>',
      'E.164 number, e.g. +15551234567 (default: the number on file)',
    )
    .addOption(
      new Option(
        '--method-id <id>',
        'send to the number of this SMS method (default: the number given or on file)',
      ).argParser(methodId),
    )
    .addHelpText(
      'after',
      examples('gpumkt tfa send-sms -p +15551234567', 'gpumkt tfa send-sms --method-id 12'),
    )
    .action(kit.action(sendSms));

  tfa
    .command('resend-sms')
    .description('Send the code of a pending SMS challenge again')
    .requiredOption('-s, --secret <secret>', 'the secret printed by send-sms (required)')
    .option(
      '-p, --phone-number <phone>',
      'must match the number of the original challenge (default: that number)',
    )
    .addHelpText('after', examples('gpumkt tfa resend-sms -s 0f1e2d...'))
    .action(kit.action(resendSms));

  tfa
    .command('totp-setup')
    .description(
      'Generate an authenticator-app secret: a QR code on a terminal, else the otpauth:// URI and the secret',
    )
    .addHelpText('after', examples('gpumkt tfa totp-setup', 'gpumkt tfa totp-setup --raw'))
    .action(kit.action(totpSetup));

  addVerifyOptions(
    tfa
      .command('auth-new')
      .description(
        'Authorize adding a method (30 minutes). Step 1 sends a code (or takes a backup code); ' +
          'step 2 passes the code back with -s and -c.',
      ),
    'email, the only choice without methods',
  )
    .addHelpText(
      'after',
      examples(
        'gpumkt tfa auth-new                 # emails a code, prints the secret',
        'gpumkt tfa auth-new -s SECRET -c 123456',
        'gpumkt tfa auth-new -t totp         # then: gpumkt tfa auth-new -s SECRET -c CODE',
        'gpumkt tfa auth-new -bc ABCD-EFGH-JKLM',
      ),
    )
    .action(kit.action(authNew));

  tfa
    .command('activate')
    .description(
      'Activate a new method with a code; the first method also returns 10 backup codes, once',
    )
    .argument('<code>', 'the 6-digit code')
    .requiredOption(
      '--secret <secret>',
      'the totp-setup secret (totp) or the send-sms secret (sms) (required)',
    )
    .addOption(
      new Option('-t, --method-type <type>', 'sms or totp')
        .argParser(choiceOption(['sms', 'totp'] as const))
        .default('totp', 'totp'),
    )
    .option(
      '-p, --phone-number <phone>',
      'E.164 number, e.g. +15551234567 (required with -t sms; default: none)',
    )
    .addOption(
      new Option(
        '-l, --label <label>',
        `display label, at most ${LABEL_MAX_LENGTH} characters (default: none)`,
      ).argParser(labelOption),
    )
    .option(
      '-o, --output <file>',
      'write the backup codes to this new file (mode 0600) instead of printing them ' +
        '(default: print them once)',
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt tfa activate 123456 --secret JBSWY3DPEHPK3PXP -l "Phone app"',
        'gpumkt tfa activate 123456 --secret SECRET -t sms -p +15551234567 -o ~/gpumkt-backup-codes.txt',
      ),
    )
    .action(kit.action(activate));

  addVerifyOptions(
    tfa
      .command('login')
      .description('Open a 2FA session; its key is saved (mode 0600) and used by later commands'),
    API_METHOD_DEFAULT,
  )
    .addHelpText(
      'after',
      examples(
        'gpumkt tfa login -t totp -c 123456',
        'gpumkt tfa send-sms && gpumkt tfa login -t sms -s SECRET -c 123456',
        'gpumkt tfa login -bc ABCD-EFGH-JKLM',
      ),
    )
    .action(kit.action(login));

  tfa
    .command('logout')
    .description(
      'End the saved 2FA session on the api and remove its key; later commands use the API key',
    )
    .addHelpText('after', examples('gpumkt tfa logout'))
    .action(kit.action(logout));

  addVerifyOptions(
    tfa
      .command('delete')
      .description(
        'Remove a 2FA method (the verifying one unless --id-to-delete); the last one turns 2FA off',
      ),
    API_METHOD_DEFAULT,
  )
    .addOption(
      new Option(
        '--id-to-delete <id>',
        'the method to remove, short form -id; required with a backup code ' +
          '(default: the verifying method)',
      ).argParser(methodId),
    )
    .option(
      '-y, --yes',
      'do not ask for confirmation, needed when stdin is not a terminal (default: ask)',
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt tfa delete -t totp -c 123456',
        'gpumkt tfa delete -bc ABCD-EFGH-JKLM -id 12 --yes',
      ),
    )
    .action(kit.action(deleteMethod));

  addVerifyOptions(
    tfa
      .command('regen-codes')
      .description('Replace all backup codes with 10 new ones, returned once'),
    API_METHOD_DEFAULT,
  )
    .option(
      '-o, --output <file>',
      'write the codes to this new file (mode 0600) instead of printing them ' +
        '(default: print them once)',
    )
    .option(
      '-y, --yes',
      'do not ask for confirmation, needed when stdin is not a terminal (default: ask)',
    )
    .addHelpText('after', examples('gpumkt tfa regen-codes -t totp -c 123456 -o codes.txt --yes'))
    .action(kit.action(regenCodes));

  tfa
    .command('update')
    .description('Change the label or the primary flag of a method')
    .argument('<method-id>', 'the method id (see tfa status)', methodId)
    .addOption(
      new Option(
        '-l, --label <label>',
        `new label, at most ${LABEL_MAX_LENGTH} characters (default: unchanged)`,
      ).argParser(labelOption),
    )
    .addOption(
      new Option(
        '-p, --set-primary <value>',
        'make it the primary method: true or false, t/f accepted (default: unchanged)',
      ).argParser(parseBooleanWord),
    )
    .addHelpText('after', examples('gpumkt tfa update 12 -l "Work phone" -p true'))
    .action(kit.action(update));

  tfa
    .command('events')
    .description(
      'Your security events, newest first: 2FA changes, backup codes, locks, 2FA logins, ' +
        'sessions ended, trusted devices (never a code or a secret)',
    )
    .addOption(
      new Option(
        '-l, --limit <n>',
        `events per page, 1..${EVENTS_MAX_LIMIT} (default: 50)`,
      ).argParser(numberOption({ integer: true, min: 1, max: EVENTS_MAX_LIMIT })),
    )
    .option(
      '-n, --next <token>',
      'continue from the "Next page" token an earlier page printed (default: the newest page)',
    )
    .addHelpText(
      'after',
      examples(
        'gpumkt tfa events',
        'gpumkt tfa events --limit 200 --next TOKEN',
        'gpumkt tfa events --raw',
      ),
    )
    .action(kit.action(events));

  tfa
    .command('devices')
    .description(
      'Your trusted devices (browsers that skip the second factor at a password login), or ' +
        'revoke one',
    )
    .addOption(
      new Option(
        '--revoke <id>',
        'revoke this device: its browser needs the second factor again (default: list them)',
      ).argParser(numberOption({ integer: true, min: 1 })),
    )
    .addHelpText('after', examples('gpumkt tfa devices', 'gpumkt tfa devices --revoke 1000042'))
    .action(kit.action(devices));
}
