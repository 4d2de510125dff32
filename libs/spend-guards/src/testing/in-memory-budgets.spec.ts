import { testBudget } from './spend-guards-kit';
import { budgetRepositoryContract } from './budget-repository.contract';
import { InMemoryBudgetRepository } from './in-memory-budgets';

describe('InMemoryBudgetRepository', () => {
  budgetRepositoryContract(async () => ({
    repository: new InMemoryBudgetRepository(),
    owner: 7,
    stranger: 8,
  }));

  it('takes a failed transaction back: the rows as they were, their ids not reused', async () => {
    const repository = new InMemoryBudgetRepository();
    const kept = await repository.insert(testBudget());
    const restore = repository.snapshot();
    await repository.insert(testBudget({ name: 'rolled back' }));
    restore();
    expect(await repository.listByUser(7)).toEqual([kept]);
    expect((await repository.insert(testBudget())).id).toBe(kept.id + 2);
  });
});
