import { rejection } from '@app/platform/testing';
import { budgetsKit, testBudget } from '../../testing/spend-guards-kit';

const ME = { userId: 7, teamId: null };
const MY_TEAM = { userId: 7, teamId: 3 };

describe('CreateBudgetUseCase', () => {
  it("stores the caller's budget, defaults filled in, amount with 3 decimals, thresholds ascending", async () => {
    const { create, budgets, clock } = budgetsKit();
    const created = await create.execute({
      caller: ME,
      name: 'training',
      amount: 250.5,
      period: 'week',
      label: 'train',
    });
    expect(created).toEqual({
      id: expect.any(Number),
      owner: { userId: 7, teamId: null },
      ownerKey: 7,
      name: 'training',
      amount: '250.500',
      period: 'week',
      scope: { label: 'train', endpointId: null, workergroupId: null },
      thresholds: [50, 80, 100],
      createdAt: new Date(clock.nowMs()),
      updatedAt: new Date(clock.nowMs()),
    });
    const sorted = await create.execute({
      caller: ME,
      name: 'b',
      amount: '1',
      period: 'day',
      thresholds: [100, 25],
    });
    expect(sorted.thresholds).toEqual([25, 100]);
    expect(await budgets.listByOwner(7)).toEqual([created, sorted]);
    expect(budgets.locked).toEqual([7, 7]);
  });

  it("in a team's context, the budget is the team's", async () => {
    const { create, list } = budgetsKit();
    const created = await create.execute({
      caller: MY_TEAM,
      name: 't',
      amount: 1,
      period: 'month',
    });
    expect(created.owner).toEqual({ userId: null, teamId: 3 });
    expect(created.ownerKey).toBe(-3);
    expect(await list.execute(ME)).toEqual([]);
    expect(await list.execute({ userId: 99, teamId: 3 })).toEqual([created]);
  });

  it('refuses each field the domain refuses with its own code, storing nothing', async () => {
    const { create, budgets } = budgetsKit();
    const base = { caller: ME, name: 'x', amount: 1, period: 'day' };
    const cases: [object, string, string][] = [
      [{ name: ' ' }, 'budget_name_invalid', 'name must not be empty'],
      [{ amount: 0 }, 'budget_amount_invalid', 'amount must be greater than 0'],
      [{ amount: '1.0001' }, 'budget_amount_invalid', 'amount must have at most 3 decimals'],
      [{ period: 'year' }, 'budget_period_invalid', 'period must be one of day, week, month'],
      [{ thresholds: [50, 50] }, 'budget_thresholds_invalid', 'thresholds must be distinct'],
      [{ endpointId: -1 }, 'budget_scope_invalid', 'endpoint_id must be a positive integer'],
    ];
    for (const [fields, code, message] of cases)
      expect(await rejection(create.execute({ ...base, ...fields }))).toMatchObject({
        code,
        message,
      });
    expect(await budgets.listByOwner(7)).toEqual([]);
  });

  it('refuses the 101st budget of an owner', async () => {
    const { create, budgets } = budgetsKit();
    for (let i = 0; i < 100; i += 1) await budgets.insert(testBudget({ name: `b${i}` }));
    expect(
      await rejection(create.execute({ caller: ME, name: 'one more', amount: 1, period: 'day' })),
    ).toMatchObject({ code: 'budget_limit_reached', message: 'an owner has at most 100 budgets' });
    expect(await budgets.countByOwner(7)).toBe(100);
    // Another owner is not counted with them.
    await create.execute({ caller: MY_TEAM, name: 'team', amount: 1, period: 'day' });
  });

  it('stores nothing when its unit of work fails after the insert', async () => {
    const { create, budgets } = budgetsKit();
    const insert = budgets.insert.bind(budgets);
    budgets.insert = async (budget) => {
      await insert(budget);
      throw new Error('the connection went away');
    };
    await expect(
      create.execute({ caller: ME, name: 'first', amount: 1, period: 'day' }),
    ).rejects.toThrow('the connection went away');
    expect(await budgets.listByOwner(7)).toEqual([]);
  });
});

describe('GetBudgetUseCase', () => {
  it("answers the budget with its current period's status, the spend read for its owner and scope", async () => {
    const { get, budgets, spend, clock } = budgetsKit();
    clock.set(Date.UTC(2026, 2, 11));
    const budget = await budgets.insert(
      testBudget({ amount: '200.000', scope: { label: 'l', endpointId: 5, workergroupId: null } }),
    );
    spend.set(7, '100.000');
    const { status } = await get.execute(ME, budget.id);
    expect(status).toEqual({
      period: { start: new Date(Date.UTC(2026, 2, 1)), end: new Date(Date.UTC(2026, 3, 1)) },
      spent: '100.000',
      remaining: '100.000',
      forecast: '310.000',
      forecastMethod: 'linear',
      crossed: [50],
    });
    expect(spend.reads).toEqual([
      {
        ownerKey: 7,
        from: new Date(Date.UTC(2026, 2, 1)),
        to: new Date(Date.UTC(2026, 3, 1)),
        scope: { label: 'l', endpointId: 5, workergroupId: null },
      },
    ]);
  });

  it("is budget_not_found for another owner's budget, the team's included", async () => {
    const { get, budgets } = budgetsKit();
    const budget = await budgets.insert(testBudget());
    for (const caller of [{ userId: 8, teamId: null }, MY_TEAM])
      expect(await rejection(get.execute(caller, budget.id))).toMatchObject({
        code: 'budget_not_found',
      });
  });
});

describe('UpdateBudgetUseCase and DeleteBudgetUseCase', () => {
  it('changes only what is given; a scope key given as null is removed', async () => {
    const { update, budgets, clock } = budgetsKit();
    const budget = await budgets.insert(
      testBudget({ scope: { label: 'l', endpointId: 5, workergroupId: 6 } }),
    );
    clock.advance(1000);
    const updated = await update.execute({
      caller: ME,
      id: budget.id,
      amount: '30',
      thresholds: [90, 10],
      endpointId: null,
    });
    expect(updated).toEqual({
      ...budget,
      amount: '30.000',
      thresholds: [10, 90],
      scope: { label: 'l', endpointId: null, workergroupId: 6 },
      updatedAt: new Date(clock.nowMs()),
    });
  });

  it("refuses a bad field, and another owner's budget, changing nothing", async () => {
    const { update, budgets } = budgetsKit();
    const budget = await budgets.insert(testBudget());
    expect(
      await rejection(update.execute({ caller: ME, id: budget.id, thresholds: [] })),
    ).toMatchObject({ code: 'budget_thresholds_invalid' });
    expect(
      await rejection(
        update.execute({ caller: { userId: 8, teamId: null }, id: budget.id, name: 'x' }),
      ),
    ).toMatchObject({ code: 'budget_not_found' });
    expect(await budgets.findForOwner(budget.id, 7)).toEqual(budget);
  });

  it('deletes the owner’s budget once', async () => {
    const { remove, budgets } = budgetsKit();
    const budget = await budgets.insert(testBudget());
    expect(await rejection(remove.execute(MY_TEAM, budget.id))).toMatchObject({
      code: 'budget_not_found',
    });
    await remove.execute(ME, budget.id);
    expect(await rejection(remove.execute(ME, budget.id))).toMatchObject({
      code: 'budget_not_found',
    });
  });
});
