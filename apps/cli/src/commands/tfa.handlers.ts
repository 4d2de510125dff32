import { ApiSchema } from '@app/api-client';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SESSION_KEY_FILE, writeSecretFile } from '../config/config-store';
import { describeKeySource } from '../config/key-resolution';
import { CommandContext } from '../context';
import { ApiError, CliFailure, UsageError } from '../errors';
import {
  authorizedText,
  backupCodesRemainingNote,
  codeDestination,
  renderBackupCodes,
  renderCodeResent,
  renderCodeSent,
  renderDeviceRevoked,
  renderMethodRemoved,
  renderSecurityEvents,
  renderTrustedDevices,
  renderMethodUpdated,
  renderTfaStatus,
  renderTotpSetup,
  totpDisplayMode,
} from './tfa.render';

export interface VerifyOptions {
  code?: string;
  backupCode?: string;
  methodType?: 'email' | 'sms' | 'totp';
  methodId?: number;
  secret?: string;
}

/** The verification fields that login, delete and regen-codes send. */
export type VerificationBody = ApiSchema<'RegenerateBackupCodesRequestDto'>;

/** Drops undefined values: the 2FA routes take absent options as absent, not null. */
function compact<Body extends object>(body: Body): Body {
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as Body;
}

/**
 * A code from an SMS, an email or an authenticator app is 6 digits: anything else is a
 * typing mistake, refused before a request (which would count as a failed attempt). The
 * message says what is wrong without repeating what was typed.
 */
export function oneTimeCode(code: string, what: string): string {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) return trimmed;
  const digits = trimmed.replace(/\D/g, '').length;
  const shape =
    digits === trimmed.length
      ? `${digits} digit${digits === 1 ? '' : 's'}`
      : `${[...trimmed].length} characters, not all digits`;
  throw new UsageError(
    `${what} must be the 6 digits your authenticator app, SMS or email shows (this one has ${shape}); ` +
      'a backup code goes with --backup-code (-bc)',
  );
}

/** The verification fields shared by login, delete and regen-codes. */
export function verificationBody(options: VerifyOptions): VerificationBody {
  if (Boolean(options.code) === Boolean(options.backupCode)) {
    throw new UsageError('give exactly one of --code (-c) or --backup-code (-bc)');
  }
  const code = options.code === undefined ? undefined : oneTimeCode(options.code, '--code');
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
    code,
    secret: options.secret,
    backup_code: options.backupCode,
  });
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
  response: { backup_codes?: string[] },
  outputPath: string | undefined,
  message: string,
): void {
  const codes = Array.isArray(response.backup_codes) ? response.backup_codes : undefined;
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

export async function status(context: CommandContext): Promise<void> {
  const response = await context.api().get('/api/v0/tfa/status/');
  context.output(response, () => renderTfaStatus(response));
}

export async function sendEmail(context: CommandContext): Promise<void> {
  const response = await context.api().post('/api/v0/tfa/email/', { body: {} });
  context.output(response, () => renderCodeSent(response, 'email'));
}

export async function sendSms(
  context: CommandContext,
  options: { phoneNumber?: string; methodId?: number },
): Promise<void> {
  const response = await context.api().post('/api/v0/tfa/sms/', {
    body: compact({ phone_number: options.phoneNumber, tfa_method_id: options.methodId }),
  });
  context.output(response, () => renderCodeSent(response, 'sms'));
}

export async function resendSms(
  context: CommandContext,
  options: { secret: string; phoneNumber?: string },
): Promise<void> {
  const response = await context.api().post('/api/v0/tfa/sms/resend/', {
    body: compact({ secret: options.secret, phone_number: options.phoneNumber }),
  });
  context.output(response, () => renderCodeResent(response, options.secret));
}

export async function totpSetup(context: CommandContext): Promise<void> {
  const response = await context.api().post('/api/v0/tfa/totp-setup/');
  const mode = totpDisplayMode(context.io.stdout.isTTY, context.raw);
  if (mode === 'raw') return context.printJson(response);
  context.print(await renderTotpSetup(response, mode));
}

export async function authNew(context: CommandContext, options: VerifyOptions): Promise<void> {
  const api = context.api();
  const path = '/api/v0/tfa/authorize-new-method/';
  if (options.secret && options.code) {
    const response = await api.put(path, {
      body: { secret: options.secret, code: oneTimeCode(options.code, '--code') },
    });
    return context.output(response, () => authorizedText(response));
  }
  if (options.code) throw new UsageError('--code needs the --secret printed by the first step');
  const body: ApiSchema<'StartAuthorizationRequestDto'> = options.backupCode
    ? { backup_code: options.backupCode }
    : options.methodId !== undefined
      ? { tfa_method_id: options.methodId }
      : { tfa_method: options.methodType ?? 'email' };
  const started = await api.post(path, { body });
  if (options.backupCode || !('secret' in started) || !started.secret)
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
  const response = await api.put(path, { body: { secret, code: oneTimeCode(code, 'The code') } });
  context.print(authorizedText(response));
}

export async function activate(
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
  const checkedCode = oneTimeCode(code, 'CODE');
  if (options.methodType === 'sms' && !options.phoneNumber) {
    throw new UsageError('an sms method needs --phone-number (-p)');
  }
  const response = await context.api().post('/api/v0/tfa/confirm-new/', {
    body: compact({
      tfa_method: options.methodType,
      code: checkedCode,
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

export async function login(context: CommandContext, options: VerifyOptions): Promise<void> {
  const body = verificationBody(options);
  const api = context.api();
  const response = await api.post('/api/v0/tfa/', { body });
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
export async function logout(context: CommandContext): Promise<void> {
  const path = context.store.path(SESSION_KEY_FILE);
  const sessionKey = context.store.read(SESSION_KEY_FILE);
  if (!sessionKey) {
    if (context.raw) return context.printJson({ logged_out: false, session_key_file: null });
    return context.print('No 2FA session is saved; nothing to log out of.');
  }
  let alreadyEnded = false;
  try {
    await context.api().withKey(sessionKey).post('/api/v0/users/logout/');
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

export async function deleteMethod(
  context: CommandContext,
  options: VerifyOptions & { idToDelete?: number; yes?: boolean },
): Promise<void> {
  const body: ApiSchema<'RemoveMethodRequestDto'> = verificationBody(options);
  if (options.backupCode && options.idToDelete === undefined) {
    throw new UsageError(
      'with a backup code, say which method to remove with --id-to-delete (-id)',
    );
  }
  if (options.idToDelete !== undefined) body.target_id = options.idToDelete;
  await confirm(context, 'Remove this 2FA method?', options.yes);
  const response = await context.api().delete('/api/v0/tfa/', { body });
  context.output(response, () => renderMethodRemoved(response));
}

export async function regenCodes(
  context: CommandContext,
  options: VerifyOptions & { output?: string; yes?: boolean },
): Promise<void> {
  const body = verificationBody(options);
  const outputPath = checkOutputFile(options.output);
  await confirm(context, 'Replace all backup codes? The old ones stop working.', options.yes);
  const response = await context.api().put('/api/v0/tfa/regen-backup-codes/', { body });
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

export async function update(
  context: CommandContext,
  id: number,
  options: { label?: string; setPrimary?: boolean },
): Promise<void> {
  if (options.label === undefined && options.setPrimary === undefined) {
    throw new UsageError('nothing to change: give --label (-l) and/or --set-primary (-p)');
  }
  const response = await context.api().put('/api/v0/tfa/update/', {
    body: compact({ tfa_method_id: id, label: options.label, is_primary: options.setPrimary }),
  });
  context.output(response, () => renderMethodUpdated(id, options));
}

/** `tfa events`: one page of the security history; `--next` continues from a token. */
export async function events(
  context: CommandContext,
  options: { limit?: number; next?: string },
): Promise<void> {
  const query: { limit?: string; after_token?: string } = {};
  if (options.limit !== undefined) query.limit = String(options.limit);
  if (options.next !== undefined) query.after_token = options.next;
  const page = await context
    .api()
    .get('/api/v0/tfa/events/', { params: { query } })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'invalid_token')
        error.hint =
          'a --next token only continues the listing of the account it came from; ' +
          'run "gpumkt tfa events" without --next to start from the newest event.';
      throw error;
    });
  context.output(page, () => renderSecurityEvents(page, options.limit));
}

/** `tfa devices`: the trusted devices, or `--revoke ID` to take one's trust back. */
export async function devices(
  context: CommandContext,
  options: { revoke?: number },
): Promise<void> {
  if (options.revoke !== undefined) {
    const id = options.revoke;
    const response = await context.api().delete('/api/v0/tfa/devices/{id}/', {
      params: { path: { id } },
    });
    return context.output(response, () => renderDeviceRevoked(id));
  }
  const list = await context.api().get('/api/v0/tfa/devices/');
  context.output(list, () => renderTrustedDevices(list));
}
