import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Access,
  CurrentPrincipal,
  ErrorEnvelopeDto,
  errorResponsesOf,
  Principal,
  RateLimit,
  strictBody,
} from '@app/platform';
import { CreateBudgetUseCase } from '../application/create-budget.use-case';
import { SpendGuardsError, SPEND_GUARDS_ERRORS } from '../domain/errors';
import { CreateBudgetRequestDto } from './create-budget.request.dto';
import { presentBudget } from './budget.presenter';
import { CreateBudgetResponseDto } from './budget.response.dto';

/** `@StrictBody() body: SomeDto`: the request body as SomeDto, or a 400 bad_request. */
const StrictBody = strictBody((message) => new SpendGuardsError('bad_request', message));

/** Documents a route's failures from the codes it can raise. */
const ApiSpendGuardsErrors = errorResponsesOf(SPEND_GUARDS_ERRORS, ErrorEnvelopeDto);

@ApiTags('spend-guards')
@ApiBearerAuth()
@Controller('api/v0/spend-guards')
export class SpendGuardsController {
  constructor(private readonly createBudget: CreateBudgetUseCase) {}

  @Post()
  @Access('misc', 'api.spend_guards.create')
  @HttpCode(200)
  @RateLimit('spend_guards_create')
  @ApiOperation({ summary: 'Create a budget' })
  @ApiBody({ type: CreateBudgetRequestDto })
  @ApiOkResponse({ type: CreateBudgetResponseDto })
  @ApiSpendGuardsErrors('bad_request', 'budget_name_invalid')
  async create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateBudgetRequestDto,
  ): Promise<CreateBudgetResponseDto> {
    const budget = await this.createBudget.execute({ userId: principal.userId, name: body.name });
    return { success: true, budget: presentBudget(budget) };
  }
}
