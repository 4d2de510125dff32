export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** A plain aligned text table: header row, then rows, columns separated by two spaces. */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        return column.align === 'right' ? cell.padStart(widths[index]) : cell.padEnd(widths[index]);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)].join('\n') + '\n';
}

/** Two columns, field and value, for a single object. */
export function renderKeyValues(entries: readonly [string, string][]): string {
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return (
    entries.map(([key, value]) => `${key.padEnd(width)}  ${value}`.trimEnd()).join('\n') + '\n'
  );
}
