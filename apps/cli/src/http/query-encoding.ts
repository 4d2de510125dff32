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

/** Joins the base URL and an api path without doubling or losing the slash between them. */
export function buildUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, QueryValue>,
): string {
  const base = baseUrl.replace(/\/+$/, '');
  const encoded = query ? encodeQuery(query) : '';
  return `${base}${path.startsWith('/') ? path : `/${path}`}${encoded ? `?${encoded}` : ''}`;
}
