import { DateWindow } from '../options/date-window';
import { renderCsv } from '../output/csv';
import { formatAmount, formatIsoTimestamp, formatTimestamp } from '../output/format';
import { Column, renderTable } from '../output/table';
import { renderTree, TreeNode } from '../output/tree';

export interface ChargeEntry {
  type?: string;
  source?: string | null;
  description?: string;
  amount?: number;
  start?: number | null;
  end?: number | null;
  metadata?: Record<string, unknown>;
  items?: ChargeEntry[];
}

export interface ChargePage {
  success?: boolean;
  results: ChargeEntry[];
  count: number;
  total: number;
  next_token: string | null;
}

/** `endpoint-77` -> kind `Endpoint`, id `77`; a source without a dash keeps the entry type. */
export function describeSource(entry: ChargeEntry): { kind: string; id: string } {
  const source = entry.source ?? '';
  const dash = source.indexOf('-');
  if (dash > 0) {
    const kind = source.slice(0, dash);
    return { kind: kind[0].toUpperCase() + kind.slice(1), id: source.slice(dash + 1) };
  }
  const type = entry.type ?? '-';
  return { kind: type[0] ? type[0].toUpperCase() + type.slice(1) : '-', id: source || '-' };
}

function metadataId(entry: ChargeEntry, key: string): string {
  const value = entry.metadata?.[key];
  return value === undefined || value === null ? '-' : String(value);
}

export function renderChargesTable(entries: readonly ChargeEntry[], verbose: boolean): string {
  return renderTable(chargesTableColumns(verbose), chargesTableRows(entries, verbose));
}

export function chargesTableColumns(verbose: boolean): Column[] {
  return [
    { header: 'type' },
    { header: 'id' },
    { header: 'amount', align: 'right' as const },
    { header: 'start' },
    { header: 'end' },
    { header: 'endpoint' },
    { header: 'workergroup' },
    ...(verbose ? [{ header: 'description' }] : []),
  ];
}

/** The table's rows: one per entry; with verbose, one more per charge type under it. */
export function chargesTableRows(entries: readonly ChargeEntry[], verbose: boolean): string[][] {
  const rows: string[][] = [];
  for (const entry of entries) {
    const { kind, id } = describeSource(entry);
    rows.push([
      kind,
      id,
      formatAmount(entry.amount),
      formatTimestamp(entry.start),
      formatTimestamp(entry.end),
      metadataId(entry, 'endpoint_id'),
      metadataId(entry, 'workergroup_id'),
      ...(verbose ? [entry.description ?? ''] : []),
    ]);
    if (!verbose) continue;
    for (const item of entry.items ?? []) {
      rows.push([
        `  ${item.type ?? '-'}`,
        '',
        formatAmount(item.amount),
        formatTimestamp(item.start),
        formatTimestamp(item.end),
        '',
        '',
        item.description ?? '',
      ]);
    }
  }
  return rows;
}

export function renderChargesTree(entries: readonly ChargeEntry[], verbose: boolean): string {
  const node = (entry: ChargeEntry, top: boolean): TreeNode => {
    const { kind, id } = describeSource(entry);
    const title = top ? `${kind} ${id}` : (entry.type ?? '-');
    const period = `${formatTimestamp(entry.start)} -> ${formatTimestamp(entry.end)}`;
    const label = [title, formatAmount(entry.amount), period, entry.description ?? '']
      .filter(Boolean)
      .join('  ');
    const children = verbose ? (entry.items ?? []).map((item) => node(item, false)) : [];
    return { label, children };
  };
  return renderTree(entries.map((entry) => node(entry, true)));
}

export const CSV_HEADER = [
  'type',
  'id',
  'charge_type',
  'amount',
  'start',
  'end',
  'endpoint',
  'workergroup',
  'description',
];

/** One row per entry; with verbose, one more row per charge type under it. */
export function renderChargesCsv(entries: readonly ChargeEntry[], verbose: boolean): string {
  return renderCsv(CSV_HEADER, chargesCsvRows(entries, verbose));
}

/** The CSV records of `entries`, without the header. */
export function chargesCsvRows(entries: readonly ChargeEntry[], verbose: boolean): string[][] {
  const rows: string[][] = [];
  for (const entry of entries) {
    const { kind, id } = describeSource(entry);
    const endpoint = metadataId(entry, 'endpoint_id').replace(/^-$/, '');
    const workergroup = metadataId(entry, 'workergroup_id').replace(/^-$/, '');
    const row = (charge: ChargeEntry, chargeType: string): string[] => [
      kind.toLowerCase(),
      id,
      chargeType,
      typeof charge.amount === 'number' ? charge.amount.toFixed(3) : '',
      formatIsoTimestamp(charge.start),
      formatIsoTimestamp(charge.end),
      endpoint,
      workergroup,
      charge.description ?? '',
    ];
    rows.push(row(entry, ''));
    if (verbose) for (const item of entry.items ?? []) rows.push(row(item, item.type ?? ''));
  }
  return rows;
}

/**
 * `Showing N of M`, then the next page token with how to continue. `window` is given when
 * the user typed no dates: that window ended "now", so continuing it needs it spelled out.
 */
export function renderFooter(
  page: Pick<ChargePage, 'count' | 'total' | 'next_token'>,
  window?: DateWindow,
): string {
  const lines = [`Showing ${page.count} of ${page.total}`];
  if (page.next_token) {
    const how = window
      ? `pass it with -t plus -s ${window.gte} -e ${window.lte} to stay in this window, or use --all`
      : 'pass it with -t, or use --all';
    lines.push(`Next page token: ${page.next_token}  (${how})`);
  }
  return `${lines.join('\n')}\n`;
}
