import { API_KEY_FILE, ConfigStore, SESSION_KEY_FILE } from './config-store';

export type KeySource = 'flag' | 'env' | 'session' | 'api-key-file' | 'none';

export interface ResolvedKey {
  key: string | undefined;
  source: KeySource;
  /** The file it came from, for file sources. */
  path?: string;
}

export const API_KEY_ENV = 'GPUMKT_API_KEY';

/**
 * The key sent as Bearer, first match wins: `--api-key`, `$GPUMKT_API_KEY`, the 2FA
 * session key file, the API key file. An explicit key (flag or variable) beats the session
 * file because the user asked for it on this very invocation.
 */
export function resolveApiKey(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  store: Pick<ConfigStore, 'read' | 'path'>,
): ResolvedKey {
  if (flag !== undefined && flag !== '') return { key: flag, source: 'flag' };
  const fromEnv = env[API_KEY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { key: fromEnv, source: 'env' };
  const session = store.read(SESSION_KEY_FILE);
  if (session) return { key: session, source: 'session', path: store.path(SESSION_KEY_FILE) };
  const apiKey = store.read(API_KEY_FILE);
  if (apiKey) return { key: apiKey, source: 'api-key-file', path: store.path(API_KEY_FILE) };
  return { key: undefined, source: 'none' };
}

export function describeKeySource(resolved: ResolvedKey): string {
  switch (resolved.source) {
    case 'flag':
      return '--api-key';
    case 'env':
      return `$${API_KEY_ENV}`;
    case 'session':
    case 'api-key-file':
      return resolved.path ?? resolved.source;
    case 'none':
      return 'no key';
  }
}
