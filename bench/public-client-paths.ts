/** What a charges page request looks like when the public client sends it. */
export interface ChargesPageRequest {
  gte: number;
  lte: number;
  latestFirst: boolean;
  limit: number;
  format: 'table' | 'tree';
  afterToken?: string | null;
}

/**
 * The path of `GET /api/v0/charges/` as the public client encodes it: `select_filters` is
 * Python's json.dumps (a space after each ':' and ',') through quote_plus, so the benches
 * ask exactly what the api parses from that client.
 */
export function chargesPagePath(request: ChargesPageRequest): string {
  const filters = JSON.stringify({ day: { gte: request.gte, lte: request.lte } }).replace(
    /([:,])/g,
    '$1 ',
  );
  const params = [
    `select_filters=${encodeURIComponent(filters).replace(/%20/g, '+')}`,
    `latest_first=${request.latestFirst}`,
    `limit=${request.limit}`,
    `format=${request.format}`,
    ...(request.afterToken ? [`after_token=${encodeURIComponent(request.afterToken)}`] : []),
  ];
  return `/api/v0/charges/?${params.join('&')}`;
}
