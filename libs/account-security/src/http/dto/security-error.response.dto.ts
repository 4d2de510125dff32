import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '@app/platform';

/**
 * The failure body of the account-security and 2FA routes: the envelope, plus the lockout
 * state of a method. Both are served under tfa/ and the OpenAPI document has always named
 * this schema `TfaErrorResponseDto` (docs/openapi.json); identity-tfa documents its routes
 * with this class too, so there is one schema of that name.
 */
@ApiSchema({ name: 'TfaErrorResponseDto' })
export class SecurityErrorResponseDto extends ErrorEnvelopeDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'tfa_locked, and 2fa_verification_failed on a configured method: failed attempts so far',
  })
  fail_count?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'with fail_count: unix seconds when the lockout ends; null when not locked',
  })
  locked_until?: number | null;
}
