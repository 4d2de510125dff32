import { terminalText } from './terminal-text';

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** A plain aligned text table: header row, then rows, columns separated by two spaces. */
export function renderTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  return renderTableLines(columns, rows, columnWidths(columns, rows), true);
}

/** The width of each column as shown: its header, its widest cell, and at least `atLeast`. */
export function columnWidths(
  tableColumns: readonly Column[],
  tableRows: readonly (readonly string[])[],
  atLeast: readonly number[] = [],
): number[] {
  const { columns, rows } = shown(tableColumns, tableRows);
  return columns.map((column, index) =>
    Math.max(
      column.header.length,
      atLeast[index] ?? 0,
      ...rows.map((row) => (row[index] ?? '').length),
    ),
  );
}

/**
 * The lines of `rows` at the given widths, after the header line when `withHeader`: a
 * table printed in parts (pages as they arrive) keeps its columns.
 */
export function renderTableLines(
  tableColumns: readonly Column[],
  tableRows: readonly (readonly string[])[],
  widths: readonly number[],
  withHeader: boolean,
): string {
  const { columns, rows } = shown(tableColumns, tableRows);
  const line = (cells: readonly string[]): string =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        return column.align === 'right' ? cell.padStart(widths[index]) : cell.padEnd(widths[index]);
      })
      .join('  ')
      .trimEnd();
  const lines = [...(withHeader ? [line(columns.map((column) => column.header))] : [])];
  lines.push(...rows.map(line));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * Headers and cells come from the api (labels, user agents): each is shown through
 * terminalText, so none can break a row or act on the terminal.
 */
function shown(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): { columns: Column[]; rows: string[][] } {
  return {
    columns: columns.map((column) => ({ ...column, header: terminalText(column.header) })),
    rows: rows.map((row) => row.map(terminalText)),
  };
}

/** Two columns, field and value, for a single object (both through terminalText). */
export function renderKeyValues(pairs: readonly [string, string][]): string {
  const entries = pairs.map(([key, value]) => [terminalText(key), terminalText(value)]);
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return (
    entries.map(([key, value]) => `${key.padEnd(width)}  ${value}`.trimEnd()).join('\n') + '\n'
  );
}
