import { Injectable } from '@nestjs/common';

export interface ErrorMapping {
  status: number;
  /** The `error` field on the wire; defaults to the code. null omits the field. */
  wireCode?: string | null;
}

export type ErrorTable = Record<string, ErrorMapping>;

/** Errors every context can raise. */
export const PLATFORM_ERRORS: ErrorTable = {
  bad_request: { status: 400 },
  not_found: { status: 404 },
  auth_missing: { status: 403, wireCode: 'auth_error' },
  auth_invalid_key: { status: 404, wireCode: 'auth_error' },
  auth_session_expired: { status: 404, wireCode: 'auth_error' },
  missing_auth_value: { status: 401 },
  service_unavailable: { status: 503 },
  internal_error: { status: 500 },
};

/**
 * Code -> HTTP mapping, filled by each context with its own exhaustive table at module
 * construction. A code nobody registered is a programming error and answers 500.
 */
@Injectable()
export class ErrorCatalog {
  private readonly mappings = new Map<string, ErrorMapping>(Object.entries(PLATFORM_ERRORS));

  register(table: ErrorTable): void {
    for (const [code, mapping] of Object.entries(table)) this.mappings.set(code, mapping);
  }

  resolve(code: string): ErrorMapping | undefined {
    return this.mappings.get(code);
  }
}
