/**
 * The database a `postgres://` URL names. The pg driver decodes the path with decodeURI,
 * which leaves encoded reserved characters as they are (`%2F` stays `%2F`); whatever
 * creates or names that database must read it the same way, or it acts on another one.
 */
export function databaseNameOf(databaseUrl: string): string {
  return decodeURI(new URL(databaseUrl).pathname.replace(/^\//, ''));
}

/**
 * Why the database name of `databaseUrl` (the setting `setting`) cannot be used, or null.
 * A percent-encoded reserved character (`%2F` for `/`, `%3F` for `?`...) would reach the
 * server undecoded: refused up front, rather than creating or looking for a database
 * whose name nobody meant.
 */
export function databaseNameProblem(setting: string, databaseUrl: string): string | null {
  const path = new URL(databaseUrl).pathname.replace(/^\//, '');
  let plain: string;
  let full: string;
  try {
    plain = decodeURI(path);
    full = decodeURIComponent(path);
  } catch {
    return `${setting} names the database '${path}', which is not valid percent-encoding`;
  }
  if (plain !== full) {
    return (
      `${setting} names the database '${path}', whose percent-encoded characters the ` +
      `PostgreSQL driver would not decode: write the name without '/', '?', '#', ':', '@', ` +
      `'&', '=', '+', '$', ',' or ';' (letters, digits and _ are safe)`
    );
  }
  return null;
}
