import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RateLimit } from '@app/platform';
import { GetChargesReportUseCase } from '../application/get-charges-report.use-case';
import { parseChargeQuery } from '../application/parse-charge-query';
import { ChargePage } from '../domain/charge-entries';
import { ChargePageDto } from './charge-page.response.dto';

@ApiTags('charges')
@ApiBearerAuth()
@Controller('api/v0/charges')
export class ChargesController {
  constructor(private readonly report: GetChargesReportUseCase) {}

  @Get()
  @RateLimit('charges')
  @ApiOperation({
    summary: 'Per-contract charges report (keyset-paginated)',
    description:
      'Query parameters are read form-decoded as the public client sends them; see docs/billing.md.',
  })
  @ApiQuery({
    name: 'select_filters',
    required: true,
    description:
      'JSON: {"day": {"gte": <unix s>, "lte": <unix s>}, "type": {"in": ["instance","volume","serverless"]}}',
  })
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
    @Query() query: Record<string, unknown>,
  ): Promise<ChargePage> {
    return this.report.execute(principal.userId, parseChargeQuery(query));
  }
}
