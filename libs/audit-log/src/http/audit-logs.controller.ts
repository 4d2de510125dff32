import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentPrincipal, Principal } from '@app/platform';
import { ListAuditLogsUseCase } from '../application/list-audit-logs.use-case';
import { AUDIT_LOG_POLICY } from '../domain/audit-entry';
import { presentAuditEntry } from './audit-log.presenter';
import { parseAuditLogQuery } from './audit-log.request';
import { AuditLogEntryDto } from './audit-log.response.dto';

/**
 * The caller's audit log as `vastai show audit-logs` reads it: a JSON array (the public
 * client prints the body as a table), so the next page's token travels in headers.
 */
@ApiTags('audit log')
@ApiBearerAuth()
@Controller('api/v0/audit_logs')
export class AuditLogsController {
  constructor(private readonly listEntries: ListAuditLogsUseCase) {}

  @Get()
  @Access('user_read', 'api.audit_logs.list')
  @ApiOperation({
    summary: 'Your audit log, newest first (`show audit-logs`)',
    description:
      'Every write made with one of your keys or sessions, and every export: when, from where, ' +
      'with which key, the route and its arguments (secrets removed). Pages by X-Next-Token.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `integer >= 1, default ${AUDIT_LOG_POLICY.defaultPageSize}, served at most ${AUDIT_LOG_POLICY.maxPageSize}`,
  })
  @ApiQuery({
    name: 'after_token',
    required: false,
    description: 'X-Next-Token of the previous page',
  })
  @ApiOkResponse({
    type: [AuditLogEntryDto],
    description: 'entries, newest first',
    headers: {
      'X-Next-Token': {
        description: 'pass as after_token for the next page; absent on the last page',
        schema: { type: 'string' },
      },
      Link: {
        description: 'the next page, rel="next"; absent on the last page',
        schema: { type: 'string' },
      },
    },
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuditLogEntryDto[]> {
    const { limit, afterToken } = parseAuditLogQuery(query);
    const page = await this.listEntries.execute({ principal, limit, afterToken });
    if (page.nextToken) {
      response.setHeader('X-Next-Token', page.nextToken);
      const next = new URLSearchParams({ limit: String(limit), after_token: page.nextToken });
      response.setHeader('Link', `</api/v0/audit_logs/?${next.toString()}>; rel="next"`);
    }
    return page.entries.map(presentAuditEntry);
  }
}
