import { ManualClock, SnapshotUnitOfWork } from '@app/platform/testing';
import { NewBudget } from '../application/ports/budget.repository.port';
import { CreateBudgetUseCase } from '../application/create-budget.use-case';
import { InMemoryBudgetRepository } from './in-memory-budgets';

/** A budget of user 7 named 'first', unless `fields` say otherwise. */
export function testBudget(fields: Partial<NewBudget> = {}): NewBudget {
  return {
    userId: 7,
    name: 'first',
    createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
    ...fields,
  };
}

/** The spend guards fakes wired together, as the module wires the real adapters. */
export function spendGuardsKit(clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5))) {
  const budgets = new InMemoryBudgetRepository();
  const uow = new SnapshotUnitOfWork();
  uow.join(budgets);
  return {
    clock,
    budgets,
    uow,
    create: new CreateBudgetUseCase(budgets, uow, clock),
  };
}
