import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * POST /api/v0/auth/apikeys/ as `vastai create api-key` sends it ({name, permissions?,
 * key_params?}) plus the expiry the public service lacks. Types are checked by the
 * request mapper (api-key.request.ts), which names the field of every mistake.
 */
export class CreateApiKeyRequestDto {
  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 255 })
  @Allow()
  name?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'a permission document {"api": {<category>: {} | {<route>: {"constraints": {...}}}}}; ' +
      'absent or null: a full key (docs/access.md)',
  })
  @Allow()
  permissions?: unknown;

  @ApiPropertyOptional({
    description:
      'an object, or its JSON text (as `vastai --key_params` sends it): ip_whitelist ' +
      "(addresses and CIDR ranges) and values of the document's {{name}} wildcards",
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }],
    nullable: true,
  })
  @Allow()
  key_params?: unknown;

  @ApiPropertyOptional({
    description: 'when the key stops working: unix seconds, or ISO 8601 with its zone',
    oneOf: [{ type: 'integer' }, { type: 'string', format: 'date-time' }],
    nullable: true,
  })
  @Allow()
  expires_at?: unknown;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'seconds the key lives (instead of expires_at)',
  })
  @Allow()
  ttl?: unknown;
}

/** PUT /api/v0/commands/reset_apikey/ as `vastai reset api-key` sends it. */
export class ResetApiKeyRequestDto {
  @ApiPropertyOptional({
    description: '"me" (the public client sends it), or your own user id',
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  })
  @Allow()
  client_id?: unknown;
}
