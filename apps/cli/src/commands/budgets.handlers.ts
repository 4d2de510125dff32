import { ApiSchema } from '@app/api-client';
import { CommandContext } from '../context';
import { UsageError } from '../errors';
import type { ScopeKey } from './budgets.commands';
import {
  renderBudget,
  renderBudgetAlerts,
  renderBudgets,
  renderBudgetWithStatus,
} from './budgets.render';

interface ScopeOptions {
  label?: string;
  endpointId?: number;
  workergroupId?: number;
}

function scopeBody(options: ScopeOptions, clear: ScopeKey[] = []) {
  return {
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.endpointId !== undefined ? { endpoint_id: options.endpointId } : {}),
    ...(options.workergroupId !== undefined ? { workergroup_id: options.workergroupId } : {}),
    ...(clear.includes('label') ? { label: null } : {}),
    ...(clear.includes('endpoint-id') ? { endpoint_id: null } : {}),
    ...(clear.includes('workergroup-id') ? { workergroup_id: null } : {}),
  };
}

/** `budgets list`: the owner's budgets. */
export async function listBudgets(context: CommandContext): Promise<void> {
  const response = await context.api().get('/api/v0/budgets/');
  context.output(response, () => renderBudgets(response.budgets));
}

export async function createBudget(
  context: CommandContext,
  options: ScopeOptions & { name: string; amount: string; period: string; thresholds?: number[] },
): Promise<void> {
  const body: ApiSchema<'CreateBudgetRequestDto'> = {
    name: options.name,
    amount: options.amount,
    period: options.period as ApiSchema<'CreateBudgetRequestDto'>['period'],
    ...(options.thresholds ? { thresholds: options.thresholds } : {}),
    ...scopeBody(options),
  };
  const response = await context.api().post('/api/v0/budgets/', { body });
  context.output(response, () => renderBudget(response.budget, 'created'));
}

export async function showBudget(context: CommandContext, id: number): Promise<void> {
  const response = await context.api().get('/api/v0/budgets/{id}/', { params: { path: { id } } });
  context.output(response, () => renderBudgetWithStatus(response.budget));
}

export async function updateBudget(
  context: CommandContext,
  id: number,
  options: ScopeOptions & {
    name?: string;
    amount?: string;
    thresholds?: number[];
    clear?: ScopeKey[];
  },
): Promise<void> {
  const body: ApiSchema<'UpdateBudgetRequestDto'> = {
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.amount !== undefined ? { amount: options.amount } : {}),
    ...(options.thresholds ? { thresholds: options.thresholds } : {}),
    ...scopeBody(options, options.clear),
  };
  if (Object.keys(body).length === 0)
    throw new UsageError('nothing to change: give at least one option, see --help');
  const response = await context
    .api()
    .put('/api/v0/budgets/{id}/', { params: { path: { id } }, body });
  context.output(response, () => renderBudget(response.budget, 'updated'));
}

export async function deleteBudget(context: CommandContext, id: number): Promise<void> {
  const response = await context
    .api()
    .delete('/api/v0/budgets/{id}/', { params: { path: { id } } });
  context.output(response, () => `Budget ${id} deleted, with its alerts.\n`);
}

export async function budgetAlerts(context: CommandContext, id: number): Promise<void> {
  const response = await context
    .api()
    .get('/api/v0/budgets/{id}/alerts/', { params: { path: { id } } });
  context.output(response, () => renderBudgetAlerts(response.alerts));
}
