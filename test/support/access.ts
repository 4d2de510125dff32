import { TestApi, TestUser } from './api';

/**
 * A JSON body exactly as the public client sends it: Python's `json.dumps` (requests'
 * `json=`), which separates with ", " and ": " and escapes every non-ASCII character.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${pythonJson(key)}: ${pythonJson(item)}`)
    .join(', ')}}`;
}

/** The User-Agent of the public client's command line (VastClient, client_type "cli"). */
export const VASTAI_USER_AGENT = 'vastai-cli/0.5.0';

/** A request with the public client's headers and a Python-encoded JSON body. */
export function vastai(
  api: TestApi,
  user: { apiKey: string },
  method: 'get' | 'post' | 'put' | 'delete',
  path: string,
  body?: unknown,
) {
  const call = api
    .http()
    [method](path)
    .set('Authorization', `Bearer ${user.apiKey}`)
    .set('User-Agent', VASTAI_USER_AGENT);
  // GET sends no body; POST, PUT and DELETE send `{}` at least (VastClient's json_data).
  if (method === 'get') return call;
  return call.set('Content-Type', 'application/json').send(pythonJson(body ?? {}));
}

export interface CreatedKey {
  id: number;
  key: string;
  auth: { Authorization: string };
}

/** A new key of `owner`'s, made through POST /api/v0/auth/apikeys/ with `body`. */
export async function createKey(
  api: TestApi,
  owner: { apiKey: string } | { auth: { Authorization: string } },
  body: Record<string, unknown>,
): Promise<CreatedKey> {
  const auth = 'auth' in owner ? owner.auth : { Authorization: `Bearer ${owner.apiKey}` };
  const response = await api
    .http()
    .post('/api/v0/auth/apikeys/')
    .set(auth)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));
  if (response.status !== 200)
    throw new Error(`key not created: ${response.status} ${JSON.stringify(response.body)}`);
  const { id, key } = response.body as { id: number; key: string };
  return { id, key, auth: { Authorization: `Bearer ${key}` } };
}

/** The permission document granting exactly these categories, each whole. */
export function categories(...names: string[]): { api: Record<string, object> } {
  return { api: Object.fromEntries(names.map((name) => [name, {}])) };
}

/** A TestUser-shaped holder of another key of the same user. */
export function asUser(user: TestUser, key: CreatedKey): TestUser {
  return { ...user, apiKey: key.key, auth: key.auth };
}
