import { readFileSync } from 'node:fs';
import { CommandContext } from '../context';
import { ApiError, UsageError } from '../errors';
import {
  AuditEntry,
  renderApiKey,
  renderApiKeys,
  renderAuditLog,
  renderKeyCreated,
  renderKeyReset,
  renderSessions,
  renderSessionsEnded,
} from './access.render';

/** A duration (`90m`, `12h`, `30d`) in seconds, or null when `value` is no duration. */
export function durationSeconds(value: string): number | null {
  const match = /^(\d+)\s*([mhdw])$/.exec(value.trim());
  if (!match) return null;
  const unit = { m: 60, h: 3600, d: 86_400, w: 604_800 }[match[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(match[1]) * unit;
}

/** `--expires`: a lifetime (`30d`) becomes ttl, a date or time becomes expires_at. */
export function expiryFields(expires: string | undefined): { ttl?: number; expires_at?: string } {
  if (expires === undefined) return {};
  const seconds = durationSeconds(expires);
  if (seconds !== null) return { ttl: seconds };
  const date = /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T00:00:00Z` : expires;
  if (Number.isNaN(Date.parse(date)) || !/(Z|[+-]\d{2}:\d{2})$/.test(date))
    throw new UsageError(
      `--expires '${expires}': give a lifetime (90m, 12h, 30d, 2w) or a UTC date or time (2027-01-31, 2027-01-31T12:00:00Z)`,
    );
  return { expires_at: date };
}

/** The permission document of `keys create`: a file, or the categories of --allow. */
export function permissionsFrom(options: {
  permissionFile?: string;
  allow?: string[];
}): Record<string, unknown> | undefined {
  if (options.permissionFile !== undefined && options.allow !== undefined)
    throw new UsageError('give --permission-file or --allow, not both');
  if (options.allow !== undefined)
    return { api: Object.fromEntries(options.allow.map((category) => [category, {}])) };
  if (options.permissionFile === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(options.permissionFile, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --permission-file ${options.permissionFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new UsageError(`--permission-file ${options.permissionFile} is not JSON`);
  }
}

export interface CreateKeyOptions {
  name?: string;
  permissionFile?: string;
  allow?: string[];
  keyParams?: string;
  expires?: string;
}

/** `keys create`: the key is printed once, with how to save it. */
export async function createKey(context: CommandContext, options: CreateKeyOptions): Promise<void> {
  let keyParams: Record<string, unknown> | undefined;
  if (options.keyParams !== undefined) {
    try {
      keyParams = JSON.parse(options.keyParams) as Record<string, unknown>;
    } catch {
      throw new UsageError(
        '--key-params must be a JSON object, e.g. \'{"ip_whitelist": ["203.0.113.0/24"]}\'',
      );
    }
  }
  const permissions = permissionsFrom(options);
  const created = await context.api().post('/api/v0/auth/apikeys/', {
    body: {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(permissions !== undefined ? { permissions } : {}),
      ...(keyParams !== undefined ? { key_params: keyParams } : {}),
      ...expiryFields(options.expires),
    },
  });
  context.output(created, () => renderKeyCreated(created));
}

export async function listKeys(context: CommandContext): Promise<void> {
  const list = await context.api().get('/api/v0/auth/apikeys/');
  context.output(list, () => renderApiKeys(list));
}

export async function showKey(context: CommandContext, id: number): Promise<void> {
  const key = await context.api().get('/api/v0/auth/apikeys/{id}/', { params: { path: { id } } });
  context.output(key, () => renderApiKey(key));
}

export async function deleteKey(context: CommandContext, id: number): Promise<void> {
  const response = await context
    .api()
    .delete('/api/v0/auth/apikeys/{id}/', { params: { path: { id } } });
  context.output(response, () => String(response.msg));
}

/** `keys reset`: the main key rotated; the new one printed once. */
export async function resetKey(context: CommandContext): Promise<void> {
  const response = await context.api().put('/api/v0/commands/reset_apikey/', {
    body: { client_id: 'me' },
  });
  context.output(response, () => renderKeyReset(response));
}

export async function listSessions(context: CommandContext): Promise<void> {
  const list = await context.api().get('/api/v0/auth/sessions/');
  context.output(list, () => renderSessions(list));
}

/** `sessions end ID` ends one; `sessions end --all` signs out everywhere else. */
export async function endSessions(
  context: CommandContext,
  id: number | undefined,
  options: { all?: boolean },
): Promise<void> {
  if ((id === undefined) === !options.all)
    throw new UsageError('give the session to end (an id from "gpumkt sessions list"), or --all');
  const response = await context.api().delete('/api/v0/auth/sessions/', {
    body: options.all ? { all: true } : { id },
  });
  context.output(response, () => renderSessionsEnded(response));
}

/** `audit`: one page of the audit log; `--next` continues from a token. */
export async function auditLog(
  context: CommandContext,
  options: { limit?: number; next?: string },
): Promise<void> {
  const query: { limit?: string; after_token?: string } = {};
  if (options.limit !== undefined) query.limit = String(options.limit);
  if (options.next !== undefined) query.after_token = options.next;
  // The page is the body (an array, as the public client reads it); its successor is a header.
  const response = await context
    .api()
    .stream('/api/v0/audit_logs/', { params: { query } })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'invalid_token')
        error.hint =
          'a --next token only continues the listing it came from; run "gpumkt audit" ' +
          'without --next to start from the newest entry.';
      throw error;
    });
  const entries = (await response.json()) as AuditEntry[];
  const next = response.headers.get('x-next-token');
  context.output({ entries, next_token: next }, () => renderAuditLog(entries, next, options.limit));
}
