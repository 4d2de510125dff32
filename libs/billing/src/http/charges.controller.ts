import { Controller, Get, Logger, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { pipeline } from 'node:stream';
import { CurrentPrincipal, Principal, RateLimit } from '@app/platform';
import { ExportChargesUseCase } from '../application/export-charges.use-case';
import { GetChargeStatementUseCase } from '../application/get-charge-statement.use-case';
import { GetChargesReportUseCase } from '../application/get-charges-report.use-case';
import { ChargeLineEncoder, EXPORT_COLUMNS, EXPORT_CONTENT_TYPES } from './charge-line.encoder';
import { presentChargePage } from './charge-page.presenter';
import { ChargePageDto } from './charge-page.response.dto';
import { presentChargeStatement } from './charge-statement.presenter';
import { ChargeStatementDto } from './charge-statement.response.dto';
import {
  parseChargeExportQuery,
  parseChargeQuery,
  parseChargeStatementQuery,
  RawQuery,
} from './charges.request';

const SELECT_FILTERS_QUERY = {
  name: 'select_filters',
  required: true,
  description:
    'JSON: {"day": {"gte": <unix s>, "lte": <unix s>}, "type": {"in": ["instance","volume","serverless"]}}',
};

@ApiTags('charges')
@ApiBearerAuth()
@Controller('api/v0/charges')
export class ChargesController {
  private readonly logger = new Logger('charges-export');

  constructor(
    private readonly report: GetChargesReportUseCase,
    private readonly statement: GetChargeStatementUseCase,
    private readonly exporter: ExportChargesUseCase,
  ) {}

  @Get()
  @RateLimit('charges')
  @ApiOperation({
    summary: 'Per-contract charges report (keyset-paginated)',
    description:
      'Query parameters are read form-decoded as the public client sends them; see docs/billing.md.',
  })
  @ApiQuery(SELECT_FILTERS_QUERY)
  @ApiQuery({ name: 'format', required: false, enum: ['table', 'tree'] })
  @ApiQuery({ name: 'latest_first', required: false, enum: ['true', 'false'] })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'integer >= 1, default 100, served at most 500',
  })
  @ApiQuery({
    name: 'after_token',
    required: false,
    description: 'next_token of the previous page',
  })
  @ApiOkResponse({ type: ChargePageDto })
  @ApiBadRequestResponse({ description: 'Missing day range, invalid filter or invalid_token' })
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=1.0"}',
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
  ): Promise<ChargePageDto> {
    return presentChargePage(await this.report.execute(principal.userId, parseChargeQuery(query)));
  }

  @Get('summary')
  @RateLimit('charges_summary')
  @ApiOperation({
    summary: 'Statement: charges per calendar period (UTC) and group',
    description:
      'Served from the per-day summary; sums are exact and rounded once to 3 decimals. ' +
      'See docs/billing.md "Statement".',
  })
  @ApiQuery(SELECT_FILTERS_QUERY)
  @ApiQuery({
    name: 'period',
    required: false,
    enum: ['day', 'week', 'month'],
    description: 'UTC; weeks start on Monday (default month)',
  })
  @ApiQuery({
    name: 'group_by',
    required: false,
    enum: ['type', 'endpoint', 'workergroup', 'label'],
    description: 'default type',
  })
  @ApiOkResponse({ type: ChargeStatementDto })
  @ApiBadRequestResponse({ description: 'Missing day range, invalid filter, period or group_by' })
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=1.0"}',
  })
  async summary(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
  ): Promise<ChargeStatementDto> {
    const statement = await this.statement.execute(
      principal.userId,
      parseChargeStatementQuery(query),
    );
    return presentChargeStatement(statement);
  }

  @Get('export')
  @RateLimit('charges_export')
  @ApiOperation({
    summary: 'Export: every daily charge line in range, streamed as CSV or NDJSON',
    description:
      `One row per contract, day and charge type; columns ${EXPORT_COLUMNS.join(', ')}. ` +
      'Amounts are exact, unrounded decimal strings. Streamed from a database cursor; the ' +
      'X-Charge-Lines header carries the number of lines expected. See docs/billing.md "Export".',
  })
  @ApiQuery(SELECT_FILTERS_QUERY)
  @ApiQuery({
    name: 'format',
    required: false,
    enum: ['csv', 'ndjson'],
    description: 'default csv',
  })
  @ApiProduces(EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.ndjson)
  @ApiOkResponse({
    description:
      'The file, with Content-Disposition: attachment; filename="charges-<first day>-<last day>.<format>"',
    headers: {
      'Content-Disposition': { schema: { type: 'string' } },
      'X-Charge-Lines': { schema: { type: 'integer' } },
    },
    content: {
      'text/csv': {
        schema: { type: 'string', example: `${EXPORT_COLUMNS.join(',')}\r\n` },
      },
      'application/x-ndjson': { schema: { type: 'string' } },
    },
  })
  @ApiBadRequestResponse({ description: 'Missing day range, invalid filter or format' })
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=10.0"}',
  })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
    @Res() response: Response,
  ): Promise<void> {
    const parsed = parseChargeExportQuery(query);
    const exported = await this.exporter.execute(principal.userId, parsed);
    response.status(200);
    response.setHeader('Content-Type', EXPORT_CONTENT_TYPES[parsed.format]);
    response.setHeader('Content-Disposition', `attachment; filename="${exported.fileName}"`);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('X-Charge-Lines', String(exported.expectedLines));
    // pipeline destroys every stage when one fails or the client goes away: the cursor's
    // stream then closes its connection (PostgresChargeExportSource). After a failure the body
    // is cut short without its last chunk, so no client mistakes it for a whole file.
    pipeline(exported.lines, new ChargeLineEncoder(parsed.format), response, (error) => {
      if (!error) return;
      if (response.headersSent && !response.writableFinished) response.destroy();
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.warn(`export stopped: ${error.message}`);
      }
    });
  }
}
