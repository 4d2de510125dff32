import { spendGuardsKit } from '../testing/spend-guards-kit';

describe('CreateBudgetUseCase', () => {
  const OWNER = 7;

  it("stores the caller's budget with the current time and answers it", async () => {
    const { create, budgets, clock } = spendGuardsKit();
    const created = await create.execute({ userId: OWNER, name: 'first' });
    expect(created).toEqual({
      id: expect.any(Number),
      userId: OWNER,
      name: 'first',
      createdAt: new Date(clock.nowMs()),
    });
    expect(await budgets.listByUser(OWNER)).toEqual([created]);
  });

  it('refuses a name the domain refuses, storing nothing', async () => {
    const { create, budgets } = spendGuardsKit();
    await expect(create.execute({ userId: OWNER, name: ' ' })).rejects.toMatchObject({
      code: 'budget_name_invalid',
      message: 'name must not be empty',
    });
    expect(await budgets.listByUser(OWNER)).toEqual([]);
  });

  it('stores nothing when its unit of work fails after the insert', async () => {
    const { create, budgets } = spendGuardsKit();
    const insert = budgets.insert.bind(budgets);
    budgets.insert = async (budget) => {
      await insert(budget);
      throw new Error('the connection went away');
    };
    await expect(create.execute({ userId: OWNER, name: 'first' })).rejects.toThrow(
      'the connection went away',
    );
    expect(await budgets.listByUser(OWNER)).toEqual([]);
  });
});
