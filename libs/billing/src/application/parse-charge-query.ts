import { BillingError } from '../domain/errors';
import { DomainError } from '@app/platform';
import {
  CHARGE_CATEGORIES,
  CHARGE_FORMATS,
  ChargeCategory,
  ChargeFormat,
  ChargeQuery,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '../domain/charge-report';
import { BILLING_ERROR_CODES } from './billing-error-codes';

export const DAY_RANGE_REQUIRED_MSG =
  "Must provide both 'day' gte and lte filters for instance charges";

function invalid(msg: string): DomainError {
  return new BillingError(BILLING_ERROR_CODES.badRequest, msg);
}

/** A query parameter given once; Express turns a repeated `?a=1&a=2` into an array. */
function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be given once, as a string`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bound(value: unknown, name: 'gte' | 'lte'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw invalid(`select_filters.day.${name} must be an integer (unix seconds)`);
  }
  return value;
}

function parseCategories(type: unknown): ChargeCategory[] | null {
  if (type === undefined || type === null) return null;
  if (!isObject(type) || !Array.isArray(type.in)) {
    throw invalid('select_filters.type must be an object {"in": [...]} listing charge types');
  }
  if (type.in.length === 0) {
    throw invalid('select_filters.type.in must list at least one of instance, volume, serverless');
  }
  const categories = new Set<ChargeCategory>();
  for (const name of type.in) {
    if (!CHARGE_CATEGORIES.includes(name as ChargeCategory)) {
      throw invalid(
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
export interface SelectFilters {
  gte: number;
  lte: number;
  categories: ChargeCategory[] | null;
}

/**
 * Reads `select_filters` exactly as the public client encodes it (docs/billing.md, "Query
 * parsing"): form-decoded JSON with a required `day` range and an optional `type` filter.
 * Unknown keys are ignored.
 */
export function parseSelectFilters(query: Record<string, unknown>): SelectFilters {
  const rawFilters = single(query, 'select_filters');
  let filters: unknown = {};
  if (rawFilters !== undefined) {
    try {
      filters = JSON.parse(rawFilters);
    } catch {
      throw invalid('select_filters must be a JSON object');
    }
    if (!isObject(filters)) throw invalid('select_filters must be a JSON object');
  }
  const day = (filters as Record<string, unknown>).day;
  if (
    !isObject(day) ||
    day.gte === undefined ||
    day.gte === null ||
    day.lte === undefined ||
    day.lte === null
  ) {
    throw new BillingError(BILLING_ERROR_CODES.dayRangeRequired, DAY_RANGE_REQUIRED_MSG);
  }
  const gte = bound(day.gte, 'gte');
  const lte = bound(day.lte, 'lte');
  if (gte > lte)
    throw invalid('select_filters.day.gte must not be greater than select_filters.day.lte');
  const categories = parseCategories((filters as Record<string, unknown>).type);
  return { gte, lte, categories };
}

/** A parameter restricted to `choices`; absent or empty means `fallback`. */
export function choice<T extends string>(
  query: Record<string, unknown>,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const raw = single(query, name);
  const value = (raw === undefined || raw === '' ? fallback : raw) as T;
  if (!choices.includes(value)) {
    throw invalid(
      `${name} must be ${choices
        .map((c) => `'${c}'`)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
    );
  }
  return value;
}

/**
 * Reads the query exactly as the public client encodes it (wire-contract §0, §2.6): the
 * parameters arrive form-decoded, `select_filters` is JSON, `latest_first` is `true` or
 * `false`, `limit` an integer string. Unknown select_filters keys are ignored.
 */
export function parseChargeQuery(query: Record<string, unknown>): ChargeQuery {
  const { gte, lte, categories } = parseSelectFilters(query);

  const rawFormat = single(query, 'format');
  const format = (
    rawFormat === undefined || rawFormat === '' ? 'table' : rawFormat
  ) as ChargeFormat;
  if (!CHARGE_FORMATS.includes(format)) throw invalid("format must be 'table' or 'tree'");

  const rawLatest = single(query, 'latest_first');
  let latestFirst = true;
  if (rawLatest !== undefined && rawLatest !== '') {
    const lowered = rawLatest.toLowerCase();
    if (lowered !== 'true' && lowered !== 'false')
      throw invalid('latest_first must be true or false');
    latestFirst = lowered === 'true';
  }

  const rawLimit = single(query, 'limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== undefined) {
    if (!/^\s*[+-]?\d+\s*$/.test(rawLimit) || Number(rawLimit) < 1) {
      throw invalid('limit must be an integer of at least 1');
    }
    limit = Math.min(Number(rawLimit), MAX_PAGE_SIZE);
  }

  const rawToken = single(query, 'after_token');
  const afterToken = rawToken === undefined || rawToken === '' ? null : rawToken;
  return { gte, lte, categories, format, latestFirst, limit, afterToken };
}
