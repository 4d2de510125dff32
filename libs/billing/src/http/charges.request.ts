import { ChargeExportQuery, EXPORT_FORMATS, ExportFormat } from '../domain/charge-export';
import {
  CHARGE_CATEGORIES,
  CHARGE_FORMATS,
  ChargeCategory,
  ChargeFormat,
  ChargeQuery,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '../domain/charge-report';
import {
  STATEMENT_GROUPINGS,
  STATEMENT_PERIODS,
  StatementGrouping,
  StatementQuery,
} from '../domain/charge-statement';
import { BillingError, DAY_RANGE_REQUIRED_MSG } from '../domain/errors';
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from '../domain/time-zone';
import { CsvOptions, DEFAULT_CSV_OPTIONS } from './charge-line.encoder';

/**
 * The query string as Express hands it over: form-decoded, a parameter given twice is an
 * array, a bracketed one (`a[b]=1`) an object.
 */
export type RawQuery = Record<string, unknown>;

/** A query parameter given once; Express turns a repeated `?a=1&a=2` into an array. */
function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new BillingError('bad_request', `${name} must be given once, as a string`);
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bound(value: unknown, name: 'gte' | 'lte'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new BillingError(
      'bad_request',
      `select_filters.day.${name} must be an integer (unix seconds)`,
    );
  }
  return value;
}

function parseCategories(type: unknown): ChargeCategory[] | null {
  if (type === undefined || type === null) return null;
  if (!isObject(type) || !Array.isArray(type.in)) {
    throw new BillingError(
      'bad_request',
      'select_filters.type must be an object {"in": [...]} listing charge types',
    );
  }
  if (type.in.length === 0) {
    throw new BillingError(
      'bad_request',
      'select_filters.type.in must list at least one of instance, volume, serverless',
    );
  }
  const categories = new Set<ChargeCategory>();
  for (const name of type.in) {
    if (!CHARGE_CATEGORIES.includes(name as ChargeCategory)) {
      throw new BillingError(
        'bad_request',
        `select_filters.type.in: unknown type ${JSON.stringify(name)} (expected instance, volume or serverless)`,
      );
    }
    categories.add(name as ChargeCategory);
  }
  // All three classes is the same report as no filter: one canonical form, one cursor digest.
  if (categories.size === CHARGE_CATEGORIES.length) return null;
  return [...categories].sort();
}

/** The report's day range and type filter, shared by the report, the export and the statement. */
interface SelectFilters {
  gte: number;
  lte: number;
  categories: ChargeCategory[] | null;
}

/**
 * Reads `select_filters` exactly as the public client encodes it (docs/billing.md, "Query
 * parsing"): form-decoded JSON with a required `day` range and an optional `type` filter.
 * Unknown keys are ignored.
 */
function parseSelectFilters(query: RawQuery): SelectFilters {
  const rawFilters = single(query, 'select_filters');
  let filters: Record<string, unknown> = {};
  if (rawFilters !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawFilters);
    } catch {
      throw new BillingError('bad_request', 'select_filters must be a JSON object');
    }
    if (!isObject(parsed))
      throw new BillingError('bad_request', 'select_filters must be a JSON object');
    filters = parsed;
  }
  const day = filters.day;
  if (
    !isObject(day) ||
    day.gte === undefined ||
    day.gte === null ||
    day.lte === undefined ||
    day.lte === null
  ) {
    throw new BillingError('charges_day_range_required', DAY_RANGE_REQUIRED_MSG);
  }
  const gte = bound(day.gte, 'gte');
  const lte = bound(day.lte, 'lte');
  if (gte > lte) {
    throw new BillingError(
      'bad_request',
      'select_filters.day.gte must not be greater than select_filters.day.lte',
    );
  }
  const categories = parseCategories(filters.type);
  return { gte, lte, categories };
}

/** A parameter restricted to `choices`; absent or empty means `fallback`. */
function choice<T extends string>(
  query: RawQuery,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const raw = single(query, name);
  const value = (raw === undefined || raw === '' ? fallback : raw) as T;
  if (!choices.includes(value)) {
    throw new BillingError(
      'bad_request',
      `${name} must be ${choices
        .map((c) => `'${c}'`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
    );
  }
  return value;
}

/**
 * GET /api/v0/charges/: reads the query exactly as the public client encodes it
 * (docs/billing.md "Query parsing"): the parameters arrive form-decoded, `select_filters` is JSON,
 * `latest_first` is `true` or `false`, `limit` an integer string. Unknown select_filters
 * keys are ignored.
 */
export function parseChargeQuery(query: RawQuery): ChargeQuery {
  const { gte, lte, categories } = parseSelectFilters(query);

  const rawFormat = single(query, 'format');
  const format = (
    rawFormat === undefined || rawFormat === '' ? 'table' : rawFormat
  ) as ChargeFormat;
  if (!CHARGE_FORMATS.includes(format)) {
    throw new BillingError('bad_request', "format must be 'table' or 'tree'");
  }

  const rawLatest = single(query, 'latest_first');
  let latestFirst = true;
  if (rawLatest !== undefined && rawLatest !== '') {
    const lowered = rawLatest.toLowerCase();
    if (lowered !== 'true' && lowered !== 'false')
      throw new BillingError('bad_request', 'latest_first must be true or false');
    latestFirst = lowered === 'true';
  }

  const rawLimit = single(query, 'limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLimit) || Number(rawLimit) < 1) {
      throw new BillingError('bad_request', 'limit must be an integer of at least 1');
    }
    limit = Math.min(Number(rawLimit), MAX_PAGE_SIZE);
  }

  const rawToken = single(query, 'after_token');
  const afterToken = rawToken === undefined || rawToken === '' ? null : rawToken;
  return { gte, lte, categories, format, latestFirst, limit, afterToken };
}

/**
 * GET /api/v0/charges/export/: the report's `select_filters` (same validation and
 * messages), `format` (csv, the default, or ndjson) and `tz` (an IANA zone; default UTC).
 */
export function parseChargeExportQuery(query: RawQuery): ChargeExportQuery {
  const { gte, lte, categories } = parseSelectFilters(query);
  const format = choice(query, 'format', EXPORT_FORMATS, 'csv');
  return { gte, lte, categories, format, tz: parseTimeZone(query) };
}

/** `tz`: an IANA time zone name (any case), canonicalised; absent or empty: UTC. */
function parseTimeZone(query: RawQuery): string {
  const raw = single(query, 'tz');
  if (raw === undefined || raw === '') return DEFAULT_TIME_ZONE;
  const zone = canonicalTimeZone(raw);
  if (zone === null)
    throw new BillingError(
      'bad_request',
      `tz must be an IANA time zone name such as Europe/Berlin; ${JSON.stringify(raw.slice(0, 64))} is not one`,
    );
  return zone;
}

/** `true` or `false` in any case; absent or empty: the default. */
function flag(query: RawQuery, name: string, fallback: boolean): boolean {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return fallback;
  const lowered = raw.toLowerCase();
  if (lowered !== 'true' && lowered !== 'false')
    throw new BillingError('bad_request', `${name} must be true or false`);
  return lowered === 'true';
}

/**
 * The export's CSV options: `escape_formulas` (default true) and `bom` (default false).
 * They shape a CSV file only: given with `format=ndjson`, they are a 400 rather than ignored.
 */
export function parseCsvOptions(query: RawQuery, format: ExportFormat): CsvOptions {
  const options = {
    escapeFormulas: flag(query, 'escape_formulas', DEFAULT_CSV_OPTIONS.escapeFormulas),
    bom: flag(query, 'bom', DEFAULT_CSV_OPTIONS.bom),
  };
  const given = ['escape_formulas', 'bom'].filter((name) => query[name] !== undefined);
  if (format !== 'csv' && given.length > 0)
    throw new BillingError(
      'bad_request',
      `${given.join(' and ')} ${given.length === 1 ? 'applies' : 'apply'} to format=csv only`,
    );
  return options;
}

/**
 * GET /api/v0/charges/summary/: the report's `select_filters` (same validation and
 * messages), `period` (day, week or month; default month) and `group_by` (type, endpoint,
 * workergroup or label; default type) and `tz` (an IANA zone; default UTC). The statement's own limits are domain rules
 * (checkStatementLimits), applied by the use case.
 */
export function parseChargeStatementQuery(query: RawQuery): StatementQuery {
  const { gte, lte, categories } = parseSelectFilters(query);
  const period = choice(query, 'period', STATEMENT_PERIODS, 'month');
  const [groupBy, thenBy] = parseGrouping(query);
  return {
    gte,
    lte,
    categories,
    period,
    groupBy,
    ...(thenBy ? { thenBy } : {}),
    tz: parseTimeZone(query),
  };
}

/**
 * `group_by`: one dimension, or two separated by a comma of which one is `type`
 * (`endpoint,type`): the per-day summary pairs every key with the contract's class.
 */
function parseGrouping(query: RawQuery): [StatementGrouping, StatementGrouping?] {
  const raw = single(query, 'group_by');
  if (raw === undefined || raw === '') return ['type'];
  const names = raw.split(',').map((name) => name.trim());
  const known = (name: string): name is StatementGrouping =>
    (STATEMENT_GROUPINGS as readonly string[]).includes(name);
  if (names.length > 2 || !names.every(known))
    throw new BillingError(
      'bad_request',
      "group_by must be 'type', 'endpoint', 'workergroup' or 'label', or two of them joined by a comma",
    );
  if (names.length === 2 && (names[0] === names[1] || !names.includes('type')))
    throw new BillingError(
      'bad_request',
      'group_by takes two dimensions when one of them is type (endpoint,type; type,label)',
    );
  return names as [StatementGrouping, StatementGrouping?];
}
