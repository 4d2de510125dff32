/** RFC 4180: quote a field when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function renderCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return renderCsvRows([header, ...rows]);
}

/** Records only, each ending in CRLF: for a document written in parts. */
export function renderCsvRows(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
