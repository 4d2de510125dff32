import { Controller, Get, Logger, Query, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream';
import {
  Access,
  CurrentPrincipal,
  errorResponsesOf,
  Metrics,
  Principal,
  RateLimit,
  streamCompression,
} from '@app/platform';
import { ExportChargesUseCase } from '../application/export-charges.use-case';
import { GetChargeStatementUseCase } from '../application/get-charge-statement.use-case';
import { GetChargesReportUseCase } from '../application/get-charges-report.use-case';
import { ExportSettings } from '../domain/charge-export';
import { ChargeOwner } from '../domain/contract';
import { BILLING_ERRORS } from '../domain/errors';
import { ChargeLineEncoder, EXPORT_COLUMNS, EXPORT_CONTENT_TYPES } from './charge-line.encoder';
import { presentChargePage } from './charge-page.presenter';
import { ChargePageDto } from './charge-page.response.dto';
import { presentChargeStatement } from './charge-statement.presenter';
import { ChargeStatementDto } from './charge-statement.response.dto';
import { watchExport } from './export-watchdog';
import {
  parseChargeExportQuery,
  parseChargeQuery,
  parseChargeStatementQuery,
  parseCsvOptions,
  RawQuery,
} from './charges.request';

/**
 * Whose charges a request reads: the team's in a team's context (the team of the key or
 * session), else the caller's own outside any team (docs/billing.md "Owners"). What the
 * caller may read there is the access guard's: billing_read of their role and key.
 */
function ownerOf(principal: Principal): ChargeOwner {
  return { userId: principal.userId, teamId: principal.teamId };
}

/** Documents a charges route's failures from the codes it can raise (errorResponsesOf). */
const ApiBillingErrors = errorResponsesOf(BILLING_ERRORS);

const SELECT_FILTERS_QUERY = {
  name: 'select_filters',
  required: true,
  description:
    'JSON: {"day": {"gte": <unix s>, "lte": <unix s>}, "type": {"in": ["instance","volume","serverless"]}}',
};

const TZ_QUERY = {
  name: 'tz',
  required: false,
  example: 'Europe/Berlin',
  description:
    'IANA time zone (default UTC): the range holds the days whose midnight in this zone lies ' +
    'in it, and days, weeks and months follow its calendar (a DST day is 23 or 25 hours)',
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
    private readonly exportSettings: ExportSettings,
    private readonly metrics: Metrics,
  ) {}

  @Get()
  @Access('billing_read', 'api.charges.show')
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
  @ApiBillingErrors.described(
    'Missing day range, invalid filter or invalid_token',
    'charges_day_range_required',
    'bad_request',
    'invalid_token',
  )
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=1.0"}',
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
  ): Promise<ChargePageDto> {
    return presentChargePage(
      await this.report.execute(ownerOf(principal), parseChargeQuery(query)),
    );
  }

  @Get('summary')
  @Access('billing_read', 'api.charges.summary')
  @RateLimit('charges_summary')
  @ApiOperation({
    summary: 'Statement: charges per calendar period (UTC) and group',
    description:
      'Served from the per-day summary; every figure is a sum of billed amounts (each charge line ' +
      'rounded to 3 decimals), so groups add up to periods and periods to the total. ' +
      'See docs/billing.md "Statement".',
  })
  @ApiQuery(SELECT_FILTERS_QUERY)
  @ApiQuery({
    name: 'period',
    required: false,
    enum: ['day', 'week', 'month'],
    description: 'In the tz calendar (default UTC); weeks start on Monday (default month)',
  })
  @ApiQuery(TZ_QUERY)
  @ApiQuery({
    name: 'group_by',
    required: false,
    example: 'endpoint,type',
    description:
      'type, endpoint, workergroup or label (default type); or two joined by a comma, one of ' +
      'them type (endpoint,type): groups are then (key, subkey) pairs',
  })
  @ApiOkResponse({ type: ChargeStatementDto })
  @ApiBillingErrors.described(
    'Missing day range, invalid filter, period, group_by or tz',
    'charges_day_range_required',
    'bad_request',
  )
  @ApiTooManyRequestsResponse({
    description: '{"detail": "API requests too frequent endpoint threshold=1.0"}',
  })
  async summary(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
  ): Promise<ChargeStatementDto> {
    const statement = await this.statement.execute(
      ownerOf(principal),
      parseChargeStatementQuery(query),
    );
    return presentChargeStatement(statement);
  }

  @Get('export')
  @Access('billing_read', 'api.charges.export', { audited: true })
  // A request answered with anything but the file (a typo in the query, the export budget
  // full) gives its 10 s window back.
  @RateLimit('charges_export', { spentOnlyWhenServed: true })
  @ApiOperation({
    summary: 'Export: every daily charge line in range, streamed as CSV or NDJSON',
    description:
      `One row per contract, day and charge type; columns ${EXPORT_COLUMNS.join(', ')}. ` +
      'amount is exact and unrounded, billed_amount is it rounded to 3 decimals (what the report ' +
      'and statement add up). Streamed from a database cursor; the ' +
      'X-Charge-Lines header carries the number of lines expected. At most one export per user ' +
      'streams at a time (429) and a few per server (503); a client that stops reading for ' +
      'EXPORT_STALL_TIMEOUT_MS, or an export past EXPORT_MAX_DURATION_MS, is cut short. ' +
      'See docs/billing.md "Export".',
  })
  @ApiQuery(SELECT_FILTERS_QUERY)
  @ApiQuery({
    name: 'format',
    required: false,
    enum: ['csv', 'ndjson'],
    description: 'default csv',
  })
  @ApiQuery({
    name: 'escape_formulas',
    required: false,
    enum: ['true', 'false'],
    description:
      'csv only, default true: a text cell starting with =, +, -, @, tab or CR is prefixed ' +
      "with ' so spreadsheets show it as text (numbers are never altered); false: as stored",
  })
  @ApiQuery({
    name: 'bom',
    required: false,
    enum: ['true', 'false'],
    description: 'csv only, default false: start the file with a UTF-8 byte order mark',
  })
  @ApiQuery(TZ_QUERY)
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
  @ApiBillingErrors.described(
    'Missing day range, invalid filter, format or tz',
    'charges_day_range_required',
    'bad_request',
  )
  @ApiTooManyRequestsResponse({
    description:
      '{"detail": "API requests too frequent endpoint threshold=10.0"}, or an export of the ' +
      'caller is already streaming',
  })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Query() query: RawQuery,
    @Res() response: Response,
    @Req() request: Request,
  ): Promise<void> {
    const parsed = parseChargeExportQuery(query);
    const csv = parseCsvOptions(query, parsed.format);
    const exported = await this.exporter.execute(ownerOf(principal), parsed);
    response.status(200);
    response.setHeader('Content-Type', EXPORT_CONTENT_TYPES[parsed.format]);
    response.setHeader('Content-Disposition', `attachment; filename="${exported.fileName}"`);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('X-Charge-Lines', String(exported.expectedLines));
    // pipeline destroys every stage when one fails or the client goes away: the cursor's
    // stream then closes its connection (PostgresChargeExportSource). After a failure the body
    // is cut short without its last chunk, so no client mistakes it for a whole file.
    // Compressed in the pipeline when the client asks (br, gzip): flushed per chunk, so the
    // first bytes still leave at once and a stalled client still stalls the cursor.
    const compressor = streamCompression(request, response);
    const onEnd = (error: Error | null) => {
      if (!error) return;
      if (response.headersSent && !response.writableFinished) response.destroy();
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.warn(`export stopped: ${error.message}`);
      }
    };
    const encoder = new ChargeLineEncoder(parsed.format, csv);
    // Express, the middlewares and pipeline's end-of-stream each watch the response's
    // 'close': 11 listeners on an export, one past Node's warning bound, which logged a
    // false "possible memory leak" on every export. They all go with the response.
    response.setMaxListeners(20);
    if (compressor) pipeline(exported.lines, encoder, compressor, response, onEnd);
    else pipeline(exported.lines, encoder, response, onEnd);
    // A client that stops reading would hold the cursor's connection for as long as its
    // socket stays open: it is cut, and so is an export past its wall-clock bound.
    watchExport(response, this.exportSettings, (reason, afterMs) => {
      this.metrics.increment('charges_export_cuts_total', { reason });
      this.logger.warn(
        reason === 'stalled'
          ? `export of user ${principal.userId} cut after ${afterMs} ms: its client read nothing for ${this.exportSettings.stallTimeoutMs} ms`
          : `export of user ${principal.userId} cut at its wall-clock bound of ${this.exportSettings.maxDurationMs} ms`,
      );
    });
  }
}
