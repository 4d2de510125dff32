import { formatCell, formatTimestamp } from '../output/format';
import { renderTable } from '../output/table';

const LIST_COLUMNS: readonly [string, string][] = [
  ['id', 'id'],
  ['endpoint_name', 'name'],
  ['endpoint_state', 'state'],
  ['min_load', 'min_load'],
  ['min_cold_load', 'min_cold_load'],
  ['target_util', 'target_util'],
  ['cold_mult', 'cold_mult'],
  ['cold_workers', 'cold_workers'],
  ['max_workers', 'max_workers'],
  ['max_queue_time', 'max_queue_time'],
  ['target_queue_time', 'target_queue_time'],
  ['inactivity_timeout', 'inactivity_timeout'],
  ['created_at', 'created'],
];

export function renderEndpointGroups(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return 'No endpoint groups.\n';
  return renderTable(
    LIST_COLUMNS.map(([, header]) => ({ header })),
    rows.map((row) =>
      LIST_COLUMNS.map(([field]) =>
        field === 'created_at' ? formatTimestamp(row[field]) : formatCell(row[field]),
      ),
    ),
  );
}
