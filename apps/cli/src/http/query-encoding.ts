export type QueryValue = string | number | boolean | object | null | undefined;

/**
 * Encodes like the public client: strings as they are, anything else as JSON, all
 * form-encoded (space as `+`). Undefined values are left out; order is preserved.
 */
export function encodeQuery(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return search.toString();
}
