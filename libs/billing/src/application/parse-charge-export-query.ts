import { ChargeExportQuery, EXPORT_FORMATS } from '../domain/charge-export';
import { choice, parseSelectFilters } from './parse-charge-query';

/**
 * GET /api/v0/charges/export/: the report's `select_filters` (same validation and
 * messages) and `format` (csv, the default, or ndjson).
 */
export function parseChargeExportQuery(query: Record<string, unknown>): ChargeExportQuery {
  const { gte, lte, categories } = parseSelectFilters(query);
  return { gte, lte, categories, format: choice(query, 'format', EXPORT_FORMATS, 'csv') };
}
