import { Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import {
  Access,
  CurrentPrincipal,
  ErrorEnvelopeDto,
  errorResponsesOf,
  Principal,
  RateLimit,
  strictBody,
} from '@app/platform';
import { CreateBudgetUseCase } from '../application/budgets/create-budget.use-case';
import { DeleteBudgetUseCase } from '../application/budgets/delete-budget.use-case';
import { GetBudgetUseCase } from '../application/budgets/get-budget.use-case';
import { ListBudgetsUseCase } from '../application/budgets/list-budgets.use-case';
import { UpdateBudgetUseCase } from '../application/budgets/update-budget.use-case';
import { ListBudgetAlertsUseCase } from '../application/alerts/list-budget-alerts.use-case';
import { SpendGuardsError, SPEND_GUARDS_ERRORS } from '../domain/errors';
import { presentBudget, presentBudgetAlert, presentBudgetWithStatus } from './budget.presenter';
import { CreateBudgetRequestDto, UpdateBudgetRequestDto } from './budget.request.dto';
import { createBudgetFields, parseBudgetId, updateBudgetFields } from './budget.request';
import {
  BudgetAlertListResponseDto,
  BudgetDeletedResponseDto,
  BudgetListResponseDto,
  BudgetResponseDto,
  BudgetWithStatusResponseDto,
} from './budget.response.dto';

/** `@StrictBody() body: SomeDto`: the request body as SomeDto, or a 400 bad_request. */
const StrictBody = strictBody((message) => new SpendGuardsError('bad_request', message));

/** Documents a route's failures from the codes it can raise. */
const ApiSpendGuardsErrors = errorResponsesOf(SPEND_GUARDS_ERRORS, ErrorEnvelopeDto);

const FIELD_CODES = [
  'bad_request',
  'budget_name_invalid',
  'budget_amount_invalid',
  'budget_period_invalid',
  'budget_thresholds_invalid',
  'budget_scope_invalid',
] as const;

const TOO_FREQUENT = {
  description: '{"detail": "API requests too frequent endpoint threshold=..."}',
};

/**
 * Budgets of the caller's owner (a team in its context, else the user; docs/spend-guards.md):
 * reads are `billing_read`, writes `billing_write`. Another owner's budget is a 404.
 */
@ApiTags('budgets')
@ApiBearerAuth()
@Controller('api/v0/budgets')
export class BudgetsController {
  constructor(
    private readonly createBudget: CreateBudgetUseCase,
    private readonly listBudgets: ListBudgetsUseCase,
    private readonly getBudget: GetBudgetUseCase,
    private readonly updateBudget: UpdateBudgetUseCase,
    private readonly deleteBudget: DeleteBudgetUseCase,
    private readonly listAlerts: ListBudgetAlertsUseCase,
  ) {}

  @Post()
  @Access('billing_write', 'api.budgets.create')
  @HttpCode(200)
  @RateLimit('budgets_write')
  @ApiOperation({
    summary: 'Create a budget',
    description:
      'An amount per UTC calendar period (day, week from Monday, month) and the percents of it ' +
      'that alert (mail and webhooks), optionally only for charges of a label, endpoint or ' +
      'workergroup. At most 100 per owner.',
  })
  @ApiBody({ type: CreateBudgetRequestDto })
  @ApiOkResponse({ type: BudgetResponseDto })
  @ApiSpendGuardsErrors(...FIELD_CODES, 'budget_limit_reached')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateBudgetRequestDto,
  ): Promise<BudgetResponseDto> {
    const budget = await this.createBudget.execute({
      caller: { userId: principal.userId, teamId: principal.teamId },
      ...createBudgetFields(body),
    });
    return { success: true, budget: presentBudget(budget) };
  }

  @Get()
  @Access('billing_read', 'api.budgets.list')
  @RateLimit('budgets_read')
  @ApiOperation({ summary: "The caller's budgets, oldest first" })
  @ApiOkResponse({ type: BudgetListResponseDto })
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async list(@CurrentPrincipal() principal: Principal): Promise<BudgetListResponseDto> {
    const budgets = await this.listBudgets.execute(principal);
    return { success: true, budgets: budgets.map(presentBudget) };
  }

  @Get(':id')
  @Access('billing_read', 'api.budgets.show')
  @RateLimit('budgets_read')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'A budget and where it stands in its current period',
    description:
      'status.spent is the sum of the billed amounts (each charge line rounded to 3 decimals) ' +
      "of the period's charges in scope; forecast extends it linearly over the elapsed part " +
      'of the period to its end.',
  })
  @ApiOkResponse({ type: BudgetWithStatusResponseDto })
  @ApiSpendGuardsErrors('bad_request', 'budget_not_found')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async show(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
  ): Promise<BudgetWithStatusResponseDto> {
    const found = await this.getBudget.execute(principal, parseBudgetId(rawId));
    return { success: true, budget: presentBudgetWithStatus(found) };
  }

  @Put(':id')
  @Access('billing_write', 'api.budgets.update')
  @RateLimit('budgets_write')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({
    summary: 'Change a budget',
    description:
      'Any of name, amount, thresholds, label, endpoint_id, workergroup_id; a scope key given ' +
      'as null is removed. The period cannot change.',
  })
  @ApiBody({ type: UpdateBudgetRequestDto })
  @ApiOkResponse({ type: BudgetResponseDto })
  @ApiSpendGuardsErrors(...FIELD_CODES, 'budget_not_found')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
    @StrictBody() body: UpdateBudgetRequestDto,
  ): Promise<BudgetResponseDto> {
    const id = parseBudgetId(rawId);
    const budget = await this.updateBudget.execute({
      caller: { userId: principal.userId, teamId: principal.teamId },
      id,
      ...updateBudgetFields(body),
    });
    return { success: true, budget: presentBudget(budget) };
  }

  @Delete(':id')
  @Access('billing_write', 'api.budgets.delete')
  @RateLimit('budgets_write')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({ summary: 'Delete a budget and its alerts' })
  @ApiOkResponse({ type: BudgetDeletedResponseDto })
  @ApiSpendGuardsErrors('bad_request', 'budget_not_found')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
  ): Promise<BudgetDeletedResponseDto> {
    await this.deleteBudget.execute(principal, parseBudgetId(rawId));
    return { success: true };
  }

  @Get(':id/alerts')
  @Access('billing_read', 'api.budgets.alerts')
  @RateLimit('budgets_read')
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOperation({ summary: "The thresholds a budget's spend crossed, newest first" })
  @ApiOkResponse({ type: BudgetAlertListResponseDto })
  @ApiSpendGuardsErrors('bad_request', 'budget_not_found')
  @ApiTooManyRequestsResponse(TOO_FREQUENT)
  async alerts(
    @CurrentPrincipal() principal: Principal,
    @Param('id') rawId: string,
  ): Promise<BudgetAlertListResponseDto> {
    const alerts = await this.listAlerts.execute(principal, parseBudgetId(rawId));
    return { success: true, alerts: alerts.map(presentBudgetAlert) };
  }
}
