import { SpendGuardsError } from '../domain/errors';
import { BudgetFieldsInput } from '../application/budgets/budget-input.service';
import { CreateBudgetRequestDto, UpdateBudgetRequestDto } from './budget.request.dto';

/** The budget id of a path, or a 400 (a budget id is a positive integer). */
export function parseBudgetId(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647)
    throw new SpendGuardsError('bad_request', 'budget id must be a positive integer');
  return Number(raw);
}

function required(body: object, name: string): void {
  const value = (body as Record<string, unknown>)[name];
  if (value === undefined || value === null)
    throw new SpendGuardsError('bad_request', `${name} is required`);
}

function notNull(body: object, name: string): void {
  if ((body as Record<string, unknown>)[name] === null)
    throw new SpendGuardsError('bad_request', `${name} must not be null`);
}

function text(value: unknown, name: string): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string')
    throw new SpendGuardsError('bad_request', `${name} must be a string`);
  return value;
}

function scopeOf(body: CreateBudgetRequestDto | UpdateBudgetRequestDto): BudgetFieldsInput {
  return {
    label: text(body.label, 'label'),
    endpointId: body.endpoint_id as number | null | undefined,
    workergroupId: body.workergroup_id as number | null | undefined,
  };
}

/** The create command's fields: name, amount and period required; the rest optional. */
export function createBudgetFields(body: CreateBudgetRequestDto): BudgetFieldsInput & {
  name: string;
  amount: unknown;
  period: unknown;
} {
  for (const name of ['name', 'amount', 'period']) required(body, name);
  notNull(body, 'thresholds');
  return {
    name: text(body.name, 'name')!,
    amount: body.amount,
    period: body.period,
    thresholds: body.thresholds,
    ...scopeOf(body),
  };
}

/** The update's fields: each one given (name, amount and thresholds never null). */
export function updateBudgetFields(body: UpdateBudgetRequestDto): BudgetFieldsInput {
  for (const name of ['name', 'amount', 'thresholds']) notNull(body, name);
  const fields: BudgetFieldsInput = {
    name: text(body.name, 'name') ?? undefined,
    amount: body.amount,
    thresholds: body.thresholds,
    ...scopeOf(body),
  };
  if (Object.values(fields).every((value) => value === undefined))
    throw new SpendGuardsError(
      'bad_request',
      'nothing to change: give name, amount, thresholds or a scope key',
    );
  return fields;
}
