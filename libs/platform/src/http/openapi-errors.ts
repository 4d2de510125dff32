import { ApiProperty, ApiPropertyOptional, OpenAPIObject } from '@nestjs/swagger';

/** The failure body of every route (spec "Errors"); some codes add fields such as fail_count. */
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

/** Every operation answers its undeclared statuses with the error envelope. */
export function documentErrorEnvelope(document: OpenAPIObject): OpenAPIObject {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Array<{
      responses?: Record<string, unknown>;
    }>) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      operation.responses ??= {};
      operation.responses.default ??= {
        description: "Failure: {success: false, error, msg} (see the spec's error tables)",
        content: { 'application/json': { schema: ERROR_REF } },
      };
    }
  }
  return document;
}
