import { ApiProperty } from '@nestjs/swagger';

/** One entry, in the shape `vastai show audit-logs` prints (ip_address, api_key_id, created_at, api_route, args). */
export class AuditLogEntryDto {
  @ApiProperty({ type: 'integer', description: 'increases with time; the page order' })
  id: number;

  @ApiProperty({ type: 'integer', description: 'unix seconds' })
  created_at: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'client address of the request' })
  ip_address: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'the API key that made it' })
  api_key_id: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'the session that made it' })
  session_id: number | null;

  @ApiProperty({ example: 'PUT' })
  method: string;

  @ApiProperty({ example: '/api/v0/endptjobs/{id}/', description: 'the route template' })
  api_route: string;

  @ApiProperty({ example: 'api.endptjobs.update', description: 'its permission name' })
  route_name: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'path, query and body parameters; passwords, secrets, tokens, codes, keys and phone numbers are "[removed]"',
  })
  args: Record<string, unknown>;
}
