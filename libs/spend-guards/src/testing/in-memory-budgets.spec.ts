import { testBudget } from './spend-guards-kit';
import { budgetRepositoryContract } from './budget-repository.contract';
import { InMemoryBudgetAlertRepository } from './in-memory-budget-alerts';
import { InMemoryBudgetRepository } from './in-memory-budgets';

describe('InMemoryBudgetRepository and InMemoryBudgetAlertRepository', () => {
  budgetRepositoryContract(async () => {
    const repository = new InMemoryBudgetRepository();
    return {
      repository,
      alerts: new InMemoryBudgetAlertRepository(repository),
      owner: 7,
      stranger: 8,
      team: 3,
    };
  });

  it('takes a failed transaction back: the rows as they were, their ids not reused', async () => {
    const repository = new InMemoryBudgetRepository();
    const kept = await repository.insert(testBudget());
    const restore = repository.snapshot();
    await repository.insert(testBudget({ name: 'rolled back' }));
    restore();
    expect(await repository.listByOwner(7)).toEqual([kept]);
    expect((await repository.insert(testBudget())).id).toBe(kept.id + 2);
  });
});
