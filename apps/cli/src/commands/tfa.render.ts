import { formatCell, formatTimestamp } from '../output/format';
import { renderTable } from '../output/table';

export interface TfaMethod {
  id?: number;
  method?: string;
  label?: string | null;
  phone_number?: string | null;
  is_primary?: boolean;
  created_at?: number | null;
  last_used?: number | null;
  fail_count?: number;
  locked_until?: number | null;
}

export interface TfaStatus {
  tfa_enabled?: boolean;
  methods?: TfaMethod[];
  backup_codes_remaining?: number;
  new_method_authorized?: boolean;
}

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
