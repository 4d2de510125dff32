import { ApiSchema } from '@app/api-client';
import qrcode from 'qrcode-terminal';
import { formatCell, formatTimestamp } from '../output/format';
import { renderTable } from '../output/table';
import { terminalText } from '../output/terminal-text';

export type TfaStatus = ApiSchema<'TfaStatusResponseDto'>;

export function renderTfaStatus(status: TfaStatus): string {
  const methods = status.methods ?? [];
  const lines = [
    `2FA enabled: ${status.tfa_enabled ? 'yes' : 'no'}`,
    `Backup codes remaining: ${formatCell(status.backup_codes_remaining)}`,
    `New method authorized: ${status.new_method_authorized ? 'yes (30-minute window open)' : 'no'}`,
    '',
  ];
  if (!status.tfa_enabled || methods.length === 0) {
    return `${lines.join('\n')}No active 2FA methods found.\n`;
  }
  const withPhone = methods.some((method) => method.method === 'sms');
  const columns = [
    'id',
    'method',
    'label',
    ...(withPhone ? ['phone'] : []),
    'primary',
    'created',
    'last used',
    'fails',
    'locked until',
  ];
  const rows = methods.map((method) => [
    formatCell(method.id),
    formatCell(method.method),
    formatCell(method.label),
    ...(withPhone ? [formatCell(method.phone_number)] : []),
    method.is_primary ? 'yes' : 'no',
    formatTimestamp(method.created_at),
    formatTimestamp(method.last_used),
    formatCell(method.fail_count ?? 0),
    formatTimestamp(method.locked_until),
  ]);
  return (
    lines.join('\n') +
    renderTable(
      columns.map((header) => ({ header })),
      rows,
    )
  );
}

export function renderBackupCodes(codes: readonly string[]): string {
  const width = String(codes.length).length;
  return [
    'Backup codes (shown only this once: store them somewhere safe; each works once):',
    ...codes.map((code, index) => `  ${String(index + 1).padStart(width)}. ${code}`),
  ].join('\n');
}

export function backupCodesRemainingNote(remaining: unknown): string | undefined {
  if (typeof remaining !== 'number') return undefined;
  if (remaining <= 3) {
    return `Only ${remaining} backup code(s) left: run "gpumkt tfa regen-codes" soon.`;
  }
  return `Backup codes remaining: ${remaining}`;
}

/** send-email, send-sms: the api's message, the secret and the commands that take it. */
export function renderCodeSent(
  sent: ApiSchema<'CodeSentResponseDto'>,
  channel: 'sms' | 'email',
): string {
  const secret = terminalText(String(sent.secret ?? ''));
  return [
    terminalText(String(sent.msg ?? 'Code sent.')),
    `Secret: ${secret}`,
    `Next: gpumkt tfa login -t ${channel} -s ${secret} -c CODE`,
    `  or: gpumkt tfa activate CODE --secret ${secret} -t ${channel}   (adding this method)`,
  ].join('\n');
}

/** resend-sms: the secret is shown again only when the api opened a new challenge. */
export function renderCodeResent(
  resent: ApiSchema<'CodeSentResponseDto'>,
  givenSecret: string,
): string {
  const lines = [`SMS code resent. ${terminalText(String(resent.msg ?? ''))}`.trim()];
  if (resent.secret && resent.secret !== givenSecret)
    lines.push(`Secret: ${terminalText(String(resent.secret))}`);
  return lines.join('\n');
}

/** What totp-setup shows: a QR code only where someone can scan it. */
export function totpDisplayMode(stdoutIsTTY: boolean, raw: boolean): 'raw' | 'qr' | 'text' {
  if (raw) return 'raw';
  return stdoutIsTTY ? 'qr' : 'text';
}

function renderQr(text: string): Promise<string> {
  return new Promise((resolvePromise) => qrcode.generate(text, { small: true }, resolvePromise));
}

export async function renderTotpSetup(
  setup: ApiSchema<'TotpSetupResponseDto'>,
  mode: 'qr' | 'text',
): Promise<string> {
  const uri = terminalText(setup.provisioning_uri ?? '');
  const secret = terminalText(setup.secret ?? '');
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
  return lines.join('\n');
}

/**
 * Where the authorization code went, and how to read it on a development api, whose
 * outbox provider stores messages instead of sending them (docs/delivery.md).
 */
export function codeDestination(started: object, request: { tfa_method?: string }): string[] {
  if (request.tfa_method === 'totp') return ['Use the current code of your authenticator app.'];
  const sent =
    'msg' in started && typeof started.msg === 'string'
      ? terminalText(started.msg)
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

export function authorizedText(granted: object): string {
  const msg = 'msg' in granted ? granted.msg : undefined;
  return `${terminalText(String(msg ?? 'Authorization successful.'))} You may add a method for the next 30 minutes.`;
}

export function renderMethodRemoved(
  removed: ApiSchema<'MethodRemovedResponseDto'> | ApiSchema<'TfaDisabledResponseDto'>,
): string {
  const lines = [terminalText(String(removed.msg ?? '2FA method removed'))];
  if ('remaining_methods' in removed && typeof removed.remaining_methods === 'number') {
    lines.push(`You have ${removed.remaining_methods} 2FA method(s) remaining.`);
  } else {
    lines.push('2FA is now off for this account.');
  }
  return lines.join('\n');
}

export function renderMethodUpdated(
  id: number,
  change: { label?: string; setPrimary?: boolean },
): string {
  const changes = [
    change.label !== undefined ? `label "${terminalText(change.label)}"` : undefined,
    change.setPrimary !== undefined ? `primary ${change.setPrimary ? 'yes' : 'no'}` : undefined,
  ].filter(Boolean);
  return `2FA method ${id} updated: ${changes.join(', ')}.`;
}

export type SecurityEventPage = ApiSchema<'SecurityEventPageDto'>;
export type TrustedDeviceList = ApiSchema<'TrustedDeviceListDto'>;

/**
 * `tfa events`: a table (time, kind, method, address, user agent), newest first, and the
 * command for the next page when there is one.
 */
export function renderSecurityEvents(page: SecurityEventPage, limit?: number): string {
  const events = page.events ?? [];
  if (events.length === 0) return 'No security events.\n';
  const rows = events.map((event) => [
    formatTimestamp(event.created_at),
    event.kind,
    formatCell(event.method),
    formatCell(event.client_address),
    formatCell(event.user_agent),
  ]);
  const table = renderTable(
    ['time (UTC)', 'kind', 'method', 'address', 'user agent'].map((header) => ({ header })),
    rows,
  );
  if (!page.next_token) return table;
  const next = `gpumkt tfa events${limit === undefined ? '' : ` --limit ${limit}`} --next ${page.next_token}`;
  return `${table}\nNext page: ${next}\n`;
}

/** `tfa devices`: the active trusted devices, or a line saying there are none. */
export function renderTrustedDevices(list: TrustedDeviceList): string {
  const devices = list.devices ?? [];
  if (devices.length === 0)
    return 'No trusted devices: every password login asks for the second factor.\n';
  const rows = devices.map((device) => [
    String(device.id),
    formatTimestamp(device.created_at),
    formatTimestamp(device.last_used),
    formatTimestamp(device.expires_at),
    formatCell(device.client_address),
    formatCell(device.user_agent),
  ]);
  return (
    renderTable(
      ['id', 'created', 'last used', 'expires', 'address', 'user agent'].map((header) => ({
        header,
      })),
      rows,
    ) + '\nRevoke one with: gpumkt tfa devices --revoke ID\n'
  );
}

export function renderDeviceRevoked(id: number): string {
  return `Trusted device ${id} revoked: its browser needs the second factor again.`;
}
