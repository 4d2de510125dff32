/** Unix seconds as `YYYY-MM-DD HH:MM` UTC; `-` for null or 0. */
export function formatTimestamp(seconds: unknown): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds === 0) return '-';
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

/** Unix seconds as an ISO 8601 instant (for CSV); empty for null or 0. */
export function formatIsoTimestamp(seconds: unknown): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds === 0) return '';
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Charges carry 3 decimals; show all of them. */
export function formatAmount(amount: unknown): string {
  return typeof amount === 'number' ? `$${amount.toFixed(3)}` : '-';
}

/** Any JSON value as a table cell: `-` for missing, JSON for objects. */
export function formatCell(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** `1m 05s`-style duration until an instant, for lockouts. */
export function formatRemaining(untilSeconds: number, now: Date): string {
  const left = Math.max(0, Math.ceil(untilSeconds - now.getTime() / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}
