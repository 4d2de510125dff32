import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorTable, PLATFORM_ERRORS } from '@app/platform';
import { TfaErrorResponseDto } from './dto/tfa-error.response.dto';
import { TFA_ERRORS } from './tfa-errors';

/** The tables the exception filter answers with, so documented statuses cannot drift. */
const ERROR_TABLE: ErrorTable = { ...PLATFORM_ERRORS, ...TFA_ERRORS };

/**
 * Documents the failures of a route from the error codes it can raise: one response per
 * HTTP status, listing the wire `error` values behind it. Statuses left out still answer
 * the envelope (the document's `default` response).
 */
export function ApiTfaErrors(...codes: string[]) {
  const wireCodesByStatus = new Map<number, Set<string>>();
  for (const code of codes) {
    const mapping = ERROR_TABLE[code];
    // A typo here would document a status the route never answers.
    if (!mapping) throw new Error(`ApiTfaErrors: unknown error code '${code}'`);
    const wireCode = mapping.wireCode === undefined ? code : mapping.wireCode;
    const wireCodes = wireCodesByStatus.get(mapping.status) ?? new Set<string>();
    if (wireCode !== null) wireCodes.add(wireCode);
    wireCodesByStatus.set(mapping.status, wireCodes);
  }
  return applyDecorators(
    ...[...wireCodesByStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, wireCodes]) =>
        ApiResponse({
          status,
          type: TfaErrorResponseDto,
          description: `error: ${[...wireCodes].join(', ')}`,
        }),
      ),
  );
}
