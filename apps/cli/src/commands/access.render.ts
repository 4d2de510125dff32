import { ApiSchema } from '@app/api-client';
import { formatCell, formatTimestamp } from '../output/format';
import { renderKeyValues, renderTable } from '../output/table';

export type ApiKeyList = ApiSchema<'ApiKeyListDto'>;
export type ApiKeyShown = ApiSchema<'ApiKeyShownDto'>;
export type ApiKeyCreated = ApiSchema<'ApiKeyCreatedDto'>;
export type ApiKeyReset = ApiSchema<'ApiKeyResetDto'>;
export type SessionList = ApiSchema<'SessionListDto'>;
export type SessionsEnded = ApiSchema<'SessionsEndedDto'>;
export type AuditEntry = ApiSchema<'AuditLogEntryDto'>;

/** What a key may do, in a cell: `full`, or its categories (`billing_read, misc*`: * constrained). */
export function describePermissions(permissions: unknown): string {
  if (permissions === null || permissions === undefined) return 'full';
  const api = (permissions as { api?: Record<string, Record<string, unknown>> }).api ?? {};
  const names = Object.entries(api).map(([category, routes]) =>
    Object.keys(routes ?? {}).length === 0 ? category : `${category}*`,
  );
  return names.length === 0 ? 'nothing' : names.join(', ');
}

const SAVE_HINT =
  'It is shown this once: store it now. To use it here: gpumkt set api-key -   (then paste it)';

export function renderKeyCreated(created: ApiKeyCreated): string {
  return (
    `API key ${created.id} created (${formatCell(created.name)}, ${created.prefix}..., ` +
    `${describePermissions(created.permissions)}` +
    `${created.expires_at ? `, expires ${formatTimestamp(created.expires_at)} UTC` : ''}).\n` +
    `${created.key}\n${SAVE_HINT}\n`
  );
}

export function renderKeyReset(reset: ApiKeyReset): string {
  return (
    `Main API key replaced: the previous one no longer works. New key ${reset.id} ` +
    `(${reset.prefix}...):\n${reset.new_api_key}\n${SAVE_HINT}\n`
  );
}

export function renderApiKeys(list: ApiKeyList): string {
  const keys = list.apikeys ?? [];
  if (keys.length === 0) return 'No API keys.\n';
  const rows = keys.map((key) => [
    String(key.id),
    `${key.main ? '*' : ''}${formatCell(key.name)}`,
    `${key.prefix}...`,
    describePermissions(key.permissions),
    formatTimestamp(key.created_at),
    formatTimestamp(key.last_used),
    formatTimestamp(key.expires_at),
  ]);
  return (
    renderTable(
      ['id', 'name', 'prefix', 'permissions', 'created', 'last used', 'expires'].map((header) => ({
        header,
      })),
      rows,
    ) +
    '\n* the main key (gpumkt keys reset rotates it); * after a category: limited to some routes\n'
  );
}

export function renderApiKey(key: ApiKeyShown): string {
  return renderKeyValues([
    ['id', String(key.id)],
    ['name', formatCell(key.name)],
    ['prefix', `${key.prefix}...`],
    ['main', key.main ? 'yes' : 'no'],
    ['permissions', key.permissions === null ? 'full' : JSON.stringify(key.permissions)],
    ['key_params', formatCell(key.key_params)],
    ['created', formatTimestamp(key.created_at)],
    ['last used', formatTimestamp(key.last_used)],
    ['expires', formatTimestamp(key.expires_at)],
  ]);
}

export function renderSessions(list: SessionList): string {
  const sessions = list.sessions ?? [];
  if (sessions.length === 0) return 'No live sessions.\n';
  const rows = sessions.map((session) => [
    `${session.current ? '*' : ''}${session.id}`,
    formatTimestamp(session.created_at),
    formatTimestamp(session.last_used),
    formatCell(session.last_address ?? session.address),
    formatCell(session.user_agent),
    session.trusted_device ? 'yes' : 'no',
  ]);
  return (
    renderTable(
      ['id', 'opened', 'last used', 'address', 'user agent', 'trusted device'].map((header) => ({
        header,
      })),
      rows,
    ) +
    '\n* this session. End one: gpumkt sessions end ID; every other one: gpumkt sessions end --all\n'
  );
}

export function renderSessionsEnded(response: SessionsEnded): string {
  return String(response.msg);
}

export function renderAuditLog(entries: AuditEntry[], next: string | null, limit?: number): string {
  if (entries.length === 0) return 'No audit log entries.\n';
  const rows = entries.map((entry) => [
    formatTimestamp(entry.created_at),
    formatCell(entry.ip_address),
    entry.api_key_id !== null
      ? `key ${entry.api_key_id}`
      : `session ${formatCell(entry.session_id)}`,
    `${entry.method} ${entry.api_route}`,
    formatCell(entry.args),
  ]);
  const table = renderTable(
    ['time (UTC)', 'address', 'credential', 'route', 'arguments'].map((header) => ({ header })),
    rows,
  );
  if (!next) return table;
  return `${table}\nNext page: gpumkt audit${limit === undefined ? '' : ` --limit ${limit}`} --next ${next}\n`;
}
