import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** DELETE /api/v0/auth/sessions/: one session (`id`, or `key_id`), or every other (`all`). */
export class EndSessionsRequestDto {
  @ApiPropertyOptional({ type: 'integer', description: 'the session to end' })
  @Allow()
  id?: unknown;

  @ApiPropertyOptional({ type: 'integer', description: 'the same as id (the public service name)' })
  @Allow()
  key_id?: unknown;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'true: end every session but this one, and revoke every trusted device',
  })
  @Allow()
  all?: unknown;
}
