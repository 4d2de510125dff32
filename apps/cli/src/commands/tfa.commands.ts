import { Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import qrcode from 'qrcode-terminal';
import { SESSION_KEY_FILE, writeSecretFile } from '../config/config-store';
import { describeKeySource } from '../config/key-resolution';
import { CommandContext } from '../context';
import { ApiError, CliFailure, UsageError } from '../errors';
import { choiceOption, numberOption, parseBooleanWord } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import {
  backupCodesRemainingNote,
  renderBackupCodes,
  renderTfaStatus,
  TfaStatus,
} from './tfa.render';

type Body = Record<string, unknown>;

interface VerifyOptions {
  code?: string;
  backupCode?: string;
  methodType?: 'email' | 'sms' | 'totp';
  methodId?: number;
  secret?: string;
}

const methodId = numberOption({ integer: true, min: 1 });

/** The spec's limit on method labels, checked before anything is sent. */
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

/** Drops undefined values: the 2FA routes take absent options as absent, not null. */
function compact(body: Body): Body {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
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

/** The verification fields shared by login, delete and regen-codes. */
export function verificationBody(options: VerifyOptions): Body {
  if (Boolean(options.code) === Boolean(options.backupCode)) {
    throw new UsageError('give exactly one of --code (-c) or --backup-code (-bc)');
  }
  if (
    options.code &&
    (options.methodType === 'sms' || options.methodType === 'email') &&
    !options.secret
  ) {
    throw new UsageError(
      `an ${options.methodType} code needs --secret, printed by "gpumkt tfa send-${options.methodType}"`,
    );
  }
  // The api would take such a code for an sms code and refuse it for the missing secret.
  if (
    options.code &&
    options.methodType === undefined &&
    options.methodId === undefined &&
    !options.secret
  ) {
    throw new UsageError(
      'say where the code comes from: -t totp for an authenticator app, or -s SECRET ' +
        '(printed by "gpumkt tfa send-sms" or "send-email") for a code sent to you',
    );
  }
  return compact({
    tfa_method: options.methodType,
    tfa_method_id: options.methodId,
    code: options.code,
    secret: options.secret,
    backup_code: options.backupCode,
  });
}

/** What totp-setup shows: a QR code only where someone can scan it. */
export function totpDisplayMode(stdoutIsTTY: boolean, raw: boolean): 'raw' | 'qr' | 'text' {
  if (raw) return 'raw';
  return stdoutIsTTY ? 'qr' : 'text';
}

function renderQr(text: string): Promise<string> {
  return new Promise((resolvePromise) => qrcode.generate(text, { small: true }, resolvePromise));
}

/** Checked before the request: backup codes are returned once and must not be lost. */
function checkOutputFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const absolute = resolve(path);
  if (existsSync(absolute)) {
    throw new UsageError(`--output ${path} already exists; choose a new file name`);
  }
  const directory = dirname(absolute);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new UsageError(`--output ${path}: directory ${directory} does not exist`);
  }
  return absolute;
}

/** Writes or prints the codes; with --raw, they stay in the document unless written to a file. */
function deliverBackupCodes(
  context: CommandContext,
  response: Body,
  outputPath: string | undefined,
  message: string,
): void {
  const codes = Array.isArray(response.backup_codes)
    ? (response.backup_codes as string[])
    : undefined;
  let written = false;
  if (codes && outputPath) {
    try {
      writeSecretFile(outputPath, `${codes.join('\n')}\n`);
      written = true;
    } catch (error) {
      context.note(
        `Warning: could not write ${outputPath} (${(error as Error).message}); printing the codes instead.`,
      );
    }
  }
  if (context.raw) {
    const { backup_codes: _codes, ...rest } = response;
    return context.printJson(written ? { ...rest, backup_codes_file: outputPath } : response);
  }
  const lines = [message];
  if (codes && written)
    lines.push(`${codes.length} backup codes written to ${outputPath} (mode 0600).`);
  else if (codes) lines.push(renderBackupCodes(codes));
  context.print(lines.join('\n'));
}

async function confirm(
  context: CommandContext,
  question: string,
  yes: boolean | undefined,
): Promise<void> {
  if (yes) return;
  if (!context.io.stdinIsTTY) {
    throw new UsageError('this needs confirmation: pass --yes (stdin is not a terminal)');
  }
  const answer = await context.io.readLine(`${question} [y/N] `);
  if (!answer || !/^y(es)?$/i.test(answer.trim())) throw new CliFailure('Operation cancelled.');
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
}

async function status(context: CommandContext): Promise<void> {
  const response = await context
    .api()
    .request<TfaStatus>({ method: 'GET', path: '/api/v0/tfa/status/' });
  context.output(response, () => renderTfaStatus(response));
}

function printSecret(context: CommandContext, response: Body, channel: 'sms' | 'email'): void {
  const secret = String(response.secret ?? '');
  context.output(response, () =>
    [
      String(response.msg ?? 'Code sent.'),
      `Secret: ${secret}`,
      `Next: gpumkt tfa login -t ${channel} -s ${secret} -c CODE`,
      `  or: gpumkt tfa activate CODE --secret ${secret} -t ${channel}   (adding this method)`,
    ].join('\n'),
  );
}

async function sendEmail(context: CommandContext): Promise<void> {
  const response = await context
    .api()
    .request({ method: 'POST', path: '/api/v0/tfa/email/', body: {} });
  printSecret(context, response, 'email');
}

async function sendSms(
  context: CommandContext,
  options: { phoneNumber?: string; methodId?: number },
): Promise<void> {
  const response = await context.api().request({
    method: 'POST',
    path: '/api/v0/tfa/sms/',
    body: compact({ phone_number: options.phoneNumber, tfa_method_id: options.methodId }),
  });
  printSecret(context, response, 'sms');
}

async function resendSms(
  context: CommandContext,
  options: { secret: string; phoneNumber?: string },
): Promise<void> {
  const response = await context.api().request({
    method: 'POST',
    path: '/api/v0/tfa/sms/resend/',
    body: compact({ secret: options.secret, phone_number: options.phoneNumber }),
  });
  context.output(response, () => {
    const lines = [`SMS code resent. ${String(response.msg ?? '')}`.trim()];
    if (response.secret && response.secret !== options.secret)
      lines.push(`Secret: ${String(response.secret)}`);
    return lines.join('\n');
  });
}

async function totpSetup(context: CommandContext): Promise<void> {
  const response = await context.api().request<{ secret?: string; provisioning_uri?: string }>({
    method: 'POST',
    path: '/api/v0/tfa/totp-setup/',
    body: {},
  });
  const mode = totpDisplayMode(context.io.stdout.isTTY, context.raw);
  if (mode === 'raw') return context.printJson(response);
  const uri = response.provisioning_uri ?? '';
  const secret = response.secret ?? '';
  const lines =
    mode === 'qr'
      ? [
          'Scan this QR code with your authenticator app:',
          await renderQr(uri),
          `Secret (manual entry): ${secret}`,
        ]
      : [`Provisioning URI: ${uri}`, `Secret: ${secret}`];
  lines.push(
    // Adding a method needs a fresh authorization (30 minutes): auth-new comes first.
    'Next: gpumkt tfa auth-new   (authorizes adding a method: a code by email, or one of your methods)',
    ` then: gpumkt tfa activate CODE --secret ${secret}   (CODE from the app)`,
  );
  context.print(lines.join('\n'));
}

async function authNew(context: CommandContext, options: VerifyOptions): Promise<void> {
  const api = context.api();
  const path = '/api/v0/tfa/authorize-new-method/';
  if (options.secret && options.code) {
    const response = await api.request({
      method: 'PUT',
      path,
      body: { secret: options.secret, code: options.code },
    });
    return context.output(response, () => authorizedText(response));
  }
  if (options.code) throw new UsageError('--code needs the --secret printed by the first step');
  const body: Body = options.backupCode
    ? { backup_code: options.backupCode }
    : options.methodId !== undefined
      ? { tfa_method_id: options.methodId }
      : { tfa_method: options.methodType ?? 'email' };
  const started = await api.request({ method: 'POST', path, body });
  if (options.backupCode || !started.secret)
    return context.output(started, () => authorizedText(started));
  const secret = String(started.secret);
  const whereTheCodeWent = codeDestination(started, body);
  if (context.raw || !context.io.stdinIsTTY) {
    return context.output(started, () =>
      [
        ...whereTheCodeWent,
        `Secret: ${secret}`,
        `Next: gpumkt tfa auth-new -s ${secret} -c CODE`,
      ].join('\n'),
    );
  }
  for (const line of whereTheCodeWent) context.note(line);
  context.note(`Secret: ${secret}`);
  const code = (await context.io.readLine('Enter the 6-digit code: '))?.trim();
  if (!code)
    throw new CliFailure(
      `No code entered. Finish later with: gpumkt tfa auth-new -s ${secret} -c CODE`,
    );
  const response = await api.request({ method: 'PUT', path, body: { secret, code } });
  context.print(authorizedText(response));
}

/**
 * Where the authorization code went, and how to read it on a development api, whose
 * outbox provider stores messages instead of sending them (docs/delivery.md).
 */
function codeDestination(started: Body, request: Body): string[] {
  if (request.tfa_method === 'totp') return ['Use the current code of your authenticator app.'];
  const sent =
    typeof started.msg === 'string'
      ? started.msg
      : request.tfa_method === 'email'
        ? 'A code was sent to your email address.'
        : request.tfa_method === 'sms'
          ? 'A code was sent to your phone by SMS.'
          : 'A code was sent by the chosen method (an authenticator app shows its own).';
  return [
    sent,
    'On a development api nothing is sent: read the code with',
    '  npm run manage -- outbox:list --to <your email or phone>',
  ];
}

function authorizedText(response: Body): string {
  return `${String(response.msg ?? 'Authorization successful.')} You may add a method for the next 30 minutes.`;
}

async function activate(
  context: CommandContext,
  code: string,
  options: {
    secret: string;
    methodType: 'sms' | 'totp';
    phoneNumber?: string;
    label?: string;
    output?: string;
  },
): Promise<void> {
  const outputPath = checkOutputFile(options.output);
  if (options.methodType === 'sms' && !options.phoneNumber) {
    throw new UsageError('an sms method needs --phone-number (-p)');
  }
  const response = await context.api().request({
    method: 'POST',
    path: '/api/v0/tfa/confirm-new/',
    body: compact({
      tfa_method: options.methodType,
      code,
      secret: options.secret,
      phone_number: options.phoneNumber,
      label: options.label,
    }),
  });
  const message = String(
    response.msg ?? `${options.methodType.toUpperCase()} 2FA method activated.`,
  );
  deliverBackupCodes(context, response, outputPath, message);
}

async function login(context: CommandContext, options: VerifyOptions): Promise<void> {
  const body = verificationBody(options);
  const api = context.api();
  const response = await api.request({ method: 'POST', path: '/api/v0/tfa/', body });
  const sessionKey = response.session_key;
  if (typeof sessionKey !== 'string' || sessionKey === '') {
    throw new CliFailure(
      '2FA login succeeded but the api returned no session key; nothing was saved.',
    );
  }
  const path = context.store.write(SESSION_KEY_FILE, sessionKey);
  // An explicit key (--api-key, $GPUMKT_API_KEY) beats the session file on later commands.
  const shadowed = api.currentKey.source === 'flag' || api.currentKey.source === 'env';
  if (shadowed) {
    context.note(
      `Note: ${describeKeySource(api.currentKey)} takes precedence over the session key; ` +
        'leave it out for later commands to use the session.',
    );
  }
  const { session_key: _secret, ...rest } = response;
  if (context.raw) return context.printJson({ ...rest, session_key_file: path });
  const lines = [
    `2FA login successful. Session key saved to ${path}${shadowed ? '.' : '; later commands use it.'}`,
  ];
  const note = backupCodesRemainingNote(response.backup_codes_remaining);
  if (note) lines.push(note);
  context.print(lines.join('\n'));
}

/**
 * Ends the saved session whatever key the invocation would otherwise send (the session is
 * what is being ended), and forgets it locally even when the api had already ended it.
 */
async function logout(context: CommandContext): Promise<void> {
  const path = context.store.path(SESSION_KEY_FILE);
  const sessionKey = context.store.read(SESSION_KEY_FILE);
  if (!sessionKey) {
    if (context.raw) return context.printJson({ logged_out: false, session_key_file: null });
    return context.print('No 2FA session is saved; nothing to log out of.');
  }
  let alreadyEnded = false;
  try {
    await context.api().request({ method: 'POST', path: '/api/v0/users/logout/', key: sessionKey });
  } catch (error) {
    // 404 auth_error: the session had expired or was ended elsewhere; the file is stale.
    if (!(error instanceof ApiError && error.status === 404 && error.code === 'auth_error'))
      throw error;
    alreadyEnded = true;
  }
  context.store.remove(SESSION_KEY_FILE);
  if (context.raw)
    return context.printJson({
      logged_out: true,
      already_ended: alreadyEnded,
      session_key_file: path,
    });
  context.print(
    alreadyEnded
      ? `The 2FA session had already ended; removed ${path}.`
      : `Logged out: the 2FA session has ended and ${path} was removed.`,
  );
}

async function deleteMethod(
  context: CommandContext,
  options: VerifyOptions & { idToDelete?: number; yes?: boolean },
): Promise<void> {
  const body = verificationBody(options);
  if (options.backupCode && options.idToDelete === undefined) {
    throw new UsageError(
      'with a backup code, say which method to remove with --id-to-delete (-id)',
    );
  }
  if (options.idToDelete !== undefined) body.target_id = options.idToDelete;
  await confirm(context, 'Remove this 2FA method?', options.yes);
  const response = await context.api().request({ method: 'DELETE', path: '/api/v0/tfa/', body });
  context.output(response, () => {
    const lines = [String(response.msg ?? '2FA method removed')];
    if (typeof response.remaining_methods === 'number') {
      lines.push(`You have ${response.remaining_methods} 2FA method(s) remaining.`);
    } else {
      lines.push('2FA is now off for this account.');
    }
    return lines.join('\n');
  });
}

async function regenCodes(
  context: CommandContext,
  options: VerifyOptions & { output?: string; yes?: boolean },
): Promise<void> {
  const body = verificationBody(options);
  const outputPath = checkOutputFile(options.output);
  await confirm(context, 'Replace all backup codes? The old ones stop working.', options.yes);
  const response = await context
    .api()
    .request({ method: 'PUT', path: '/api/v0/tfa/regen-backup-codes/', body });
  if (!Array.isArray(response.backup_codes)) {
    throw new CliFailure('the api returned no backup codes');
  }
  deliverBackupCodes(
    context,
    response,
    outputPath,
    String(response.msg ?? 'New backup codes generated.'),
  );
}

async function update(
  context: CommandContext,
  id: number,
  options: { label?: string; setPrimary?: boolean },
): Promise<void> {
  if (options.label === undefined && options.setPrimary === undefined) {
    throw new UsageError('nothing to change: give --label (-l) and/or --set-primary (-p)');
  }
  const response = await context.api().request({
    method: 'PUT',
    path: '/api/v0/tfa/update/',
    body: compact({ tfa_method_id: id, label: options.label, is_primary: options.setPrimary }),
  });
  context.output(response, () => {
    const changes = [
      options.label !== undefined ? `label "${options.label}"` : undefined,
      options.setPrimary !== undefined ? `primary ${options.setPrimary ? 'yes' : 'no'}` : undefined,
    ].filter(Boolean);
    return `2FA method ${id} updated: ${changes.join(', ')}.`;
  });
}
