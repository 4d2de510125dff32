import { applyDecorators, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, OpenAPIObject } from '@nestjs/swagger';
import { ErrorTable, PLATFORM_ERRORS, PlatformErrorCode } from '../domain/domain-error';

/** The failure body of every route (domain/domain-error.ts); some codes add fields such as fail_count. */
export class ErrorEnvelopeDto {
  @ApiProperty({ enum: [false] }) success: false;
  @ApiPropertyOptional({ description: 'stable error code, e.g. auth_error, 2fa_expired' })
  error?: string;
  @ApiProperty({ description: 'human-readable message' }) msg: string;
}

/** The rate-limit failure body (HTTP 429 on rate-limited routes). */
export class RateLimitedDto {
  @ApiProperty({ example: 'API requests too frequent endpoint threshold=1.0' }) detail: string;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelopeDto' };

function failure(description: string) {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

/** Failures the platform itself answers on every route, whatever the context does. */
const PLATFORM_FAILURES = {
  '400': failure('Malformed request: body not a JSON object, invalid fields (bad_request)'),
  '500': failure('Unexpected error: the same envelope, never a stack trace'),
  '503': failure('A dependency (database, Redis) is unavailable; retry (service_unavailable)'),
};

/** What the authentication guard answers on routes that need a Bearer credential. */
const AUTH_FAILURES = {
  '403': failure(
    'No Authorization header: auth_error "This action requires login."; or the credential lacks ' +
      "this route's permission (x-permission) or is used from outside its ip_whitelist: " +
      'permission_denied, its msg naming what is missing (docs/access.md)',
  ),
  '404': failure('The Bearer value matches no key, or the session expired (auth_error)'),
  '429': {
    description:
      'Too many requests of this credential in flight (REQUESTS_IN_FLIGHT_PER_KEY); see Retry-After',
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/RateLimitedDto' } },
    },
  },
};

type Operation = { responses?: Record<string, unknown>; security?: unknown[] };

const RATE_LIMITED_REF = { $ref: '#/components/schemas/RateLimitedDto' };

/**
 * Every authenticated route may answer 429 `{"detail"}` (the in-flight cap per credential,
 * a rate limit, a budget), whatever 429 of its own it declares (`tfa_locked`,
 * `sms_rate_limited`): the document says either body.
 */
function orRateLimited(response: unknown): unknown {
  const declared = response as {
    description: string;
    content?: { 'application/json'?: { schema?: Record<string, unknown> } };
  };
  const schema = declared.content?.['application/json']?.schema;
  if (!schema || schema.$ref === RATE_LIMITED_REF.$ref) return response;
  return {
    ...declared,
    description: `${declared.description}; or {"detail"} when too many requests (see Retry-After)`,
    content: { 'application/json': { schema: { oneOf: [schema, RATE_LIMITED_REF] } } },
  };
}

/**
 * Documents the failures of every operation: the platform's own (malformed requests,
 * authentication, outages, unexpected errors) by status, and `default` for the
 * context-specific codes of each context's error table. Statuses a route declares itself
 * keep their own description; one declared without a body gets the envelope.
 */
export function documentErrorEnvelope(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Operation[]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const authenticated = (operation.security ?? []).length > 0;
      operation.responses = {
        ...PLATFORM_FAILURES,
        ...(authenticated ? AUTH_FAILURES : {}),
        ...operation.responses,
      };
      for (const [status, response] of Object.entries(operation.responses)) {
        // A failure a route declares by description alone still has the envelope as body.
        const declared = response as { description?: string; content?: unknown };
        if (Number(status) >= 400 && !declared.content)
          operation.responses[status] = { ...failure(declared.description ?? ''), ...declared };
      }
      if (authenticated) operation.responses['429'] = orRateLimited(operation.responses['429']);
      operation.responses.default ??= failure(
        "Failure: {success: false, error, msg} (see the spec's error tables)",
      );
    }
  }
  return document;
}

/**
 * A route decorator that documents the failures of a route from the codes it can raise:
 * one response per HTTP status, listing the wire `error` values behind it, with `body` as
 * schema (left out: the platform's envelope, which documentErrorEnvelope gives every
 * failure declared without a body). Statuses and wire codes come from the same tables the
 * exception filter answers with, and the codes are typed by them, so the document cannot
 * drift from the answers. Statuses left out still answer the envelope (the document's
 * `default` response).
 *
 * `.described(text, ...codes)` documents the one status those codes answer with in the
 * route's own words instead of the list of wire codes; codes of two statuses are refused
 * when the controller loads.
 */
export function errorResponsesOf<Code extends string>(
  table: ErrorTable<Code>,
  body?: Type<unknown>,
) {
  const definitions: ErrorTable<Code | PlatformErrorCode> = { ...PLATFORM_ERRORS, ...table };
  const response = (status: number, description: string) =>
    ApiResponse({ status, ...(body ? { type: body } : {}), description });
  const decorate = (
    ...codes: Array<Code | PlatformErrorCode>
  ): MethodDecorator & ClassDecorator => {
    const wireCodesByStatus = new Map<number, Set<string>>();
    for (const code of codes) {
      const definition = definitions[code];
      const wireCode = definition.wireCode === undefined ? code : definition.wireCode;
      const wireCodes = wireCodesByStatus.get(definition.status) ?? new Set<string>();
      if (wireCode !== null) wireCodes.add(wireCode);
      wireCodesByStatus.set(definition.status, wireCodes);
    }
    return applyDecorators(
      ...[...wireCodesByStatus.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, wireCodes]) => response(status, `error: ${[...wireCodes].join(', ')}`)),
    );
  };
  const described = (
    description: string,
    ...codes: [Code | PlatformErrorCode, ...Array<Code | PlatformErrorCode>]
  ): MethodDecorator & ClassDecorator => {
    const statuses = [...new Set(codes.map((code) => definitions[code].status))];
    if (statuses.length !== 1) {
      throw new Error(
        `errorResponsesOf(...).described: ${codes.join(', ')} answer ${statuses.join(' and ')}; ` +
          'describe one status at a time',
      );
    }
    return response(statuses[0], description);
  };
  return Object.assign(decorate, { described });
}
