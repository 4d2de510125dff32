import { BudgetAlertRepository } from '../application/ports/budget-alert.repository.port';
import { BudgetRepository } from '../application/ports/budget.repository.port';
import { testBudget } from './spend-guards-kit';

/** What the contract runs against: the two repositories, two users and a team. */
export interface BudgetRepositorySubject {
  repository: BudgetRepository;
  alerts: BudgetAlertRepository;
  owner: number;
  stranger: number;
  team: number;
}

const JAN = { start: new Date(Date.UTC(2026, 0, 1)), end: new Date(Date.UTC(2026, 1, 1)) };
const FEB = { start: new Date(Date.UTC(2026, 1, 1)), end: new Date(Date.UTC(2026, 2, 1)) };

/**
 * One suite, run by a unit spec on the in-memory fakes and by an int-spec on PostgreSQL, so
 * the fakes the use-case tests rely on keep to what the real repositories do
 * (docs/architecture.md "Where do tests go?").
 */
export function budgetRepositoryContract(setup: () => Promise<BudgetRepositorySubject>): void {
  let subject: BudgetRepositorySubject;
  const mine = () => ({ userId: subject.owner, teamId: null });

  beforeAll(async () => {
    subject = await setup();
  });

  it('stores a budget exactly, under a fresh id, keyed by its owner as billing keys charges', async () => {
    const row = testBudget({
      owner: mine(),
      amount: '12.345',
      period: 'week',
      thresholds: [10, 1000],
      scope: { label: 'train', endpointId: 501, workergroupId: null },
    });
    const first = await subject.repository.insert(row);
    const second = await subject.repository.insert(row);
    expect(first).toEqual({
      id: expect.any(Number),
      ...row,
      ownerKey: subject.owner,
      updatedAt: row.createdAt,
    });
    expect(second.id).toBeGreaterThan(first.id);
    const team = await subject.repository.insert(
      testBudget({ owner: { userId: null, teamId: subject.team } }),
    );
    expect(team.ownerKey).toBe(-subject.team);
  });

  it("lists and finds an owner's budgets only, oldest first", async () => {
    const a = await subject.repository.insert(testBudget({ owner: mine(), name: 'a' }));
    const b = await subject.repository.insert(testBudget({ owner: mine(), name: 'b' }));
    const theirs = await subject.repository.insert(
      testBudget({ owner: { userId: subject.stranger, teamId: null } }),
    );
    const listed = await subject.repository.listByOwner(subject.owner);
    expect(listed.map((budget) => budget.id)).toEqual(
      [...listed.map((budget) => budget.id)].sort((x, y) => x - y),
    );
    expect(listed).toEqual(expect.arrayContaining([a, b]));
    expect(listed).not.toContainEqual(theirs);
    expect(await subject.repository.countByOwner(subject.owner)).toBe(listed.length);
    expect(await subject.repository.findForOwner(a.id, subject.owner)).toEqual(a);
    expect(await subject.repository.findForOwner(theirs.id, subject.owner)).toBeNull();
    expect(await subject.repository.findForOwner(a.id, -subject.team)).toBeNull();
    expect(await subject.repository.ownerKeys()).toEqual(
      expect.arrayContaining([subject.owner, subject.stranger, -subject.team]),
    );
  });

  it('updates only what it is given, a scope key given as null removed, and only for the owner', async () => {
    const budget = await subject.repository.insert(
      testBudget({ owner: mine(), scope: { label: 'x', endpointId: 5, workergroupId: 6 } }),
    );
    const at = new Date(Date.UTC(2026, 0, 3));
    expect(
      await subject.repository.update(budget.id, subject.stranger, { name: 'no', updatedAt: at }),
    ).toBeNull();
    const updated = await subject.repository.update(budget.id, subject.owner, {
      amount: '7.500',
      thresholds: [90],
      scope: { endpointId: null },
      updatedAt: at,
    });
    expect(updated).toEqual({
      ...budget,
      amount: '7.500',
      thresholds: [90],
      scope: { label: 'x', endpointId: null, workergroupId: 6 },
      updatedAt: at,
    });
    expect(await subject.repository.findForOwner(budget.id, subject.owner)).toEqual(updated);
  });

  it('deletes for the owner only, and the alerts go with the budget', async () => {
    const budget = await subject.repository.insert(testBudget({ owner: mine() }));
    const alert = await subject.alerts.insertOnce({
      budgetId: budget.id,
      threshold: 50,
      period: JAN,
      spent: '50.000',
      amount: '100.000',
      createdAt: new Date(Date.UTC(2026, 0, 2)),
    });
    expect(await subject.repository.delete(budget.id, subject.stranger)).toBe(false);
    expect(await subject.repository.delete(budget.id, subject.owner)).toBe(true);
    expect(await subject.repository.delete(budget.id, subject.owner)).toBe(false);
    expect(await subject.repository.findForOwner(budget.id, subject.owner)).toBeNull();
    expect(await subject.alerts.findPendingMail(alert!.id)).toBeNull();
    expect(await subject.alerts.listByBudget(budget.id, 10)).toEqual([]);
  });

  it('inserts an alert once per budget, period start and threshold', async () => {
    const budget = await subject.repository.insert(testBudget({ owner: mine() }));
    const alert = (threshold: number, period = JAN, spent = '80.000') =>
      subject.alerts.insertOnce({
        budgetId: budget.id,
        threshold,
        period,
        spent,
        amount: '100.000',
        createdAt: new Date(period.start.getTime() + threshold * 1000),
      });
    const first = await alert(80);
    expect(first).toEqual({
      id: expect.any(Number),
      budgetId: budget.id,
      threshold: 80,
      periodStart: JAN.start,
      periodEnd: JAN.end,
      spent: '80.000',
      amount: '100.000',
      createdAt: new Date(JAN.start.getTime() + 80_000),
    });
    expect(await alert(80, JAN, '99.000')).toBeNull();
    const fifty = await alert(50);
    const february = await alert(80, FEB);
    expect(await subject.alerts.listByBudget(budget.id, 10)).toEqual([february, first, fifty]);
    expect(await subject.alerts.listByBudget(budget.id, 1)).toEqual([february]);
  });

  it('keeps the mail of an alert pending until it is sent or abandoned, once', async () => {
    const budget = await subject.repository.insert(testBudget({ owner: mine(), name: 'mailed' }));
    const insert = (threshold: number, createdAt: Date) =>
      subject.alerts.insertOnce({
        budgetId: budget.id,
        threshold,
        period: JAN,
        spent: '100.000',
        amount: '100.000',
        createdAt,
      });
    const older = (await insert(50, new Date(Date.UTC(2020, 0, 1))))!;
    const newer = (await insert(80, new Date(Date.UTC(2020, 0, 2))))!;
    const notice = await subject.alerts.findPendingMail(older.id);
    expect(notice).toEqual({ alert: older, budget });
    const pending = await subject.alerts.pendingMailSince(new Date(Date.UTC(2020, 0, 3)), 1000);
    expect(pending.indexOf(older.id)).toBeLessThan(pending.indexOf(newer.id));
    expect(pending.indexOf(older.id)).toBeGreaterThanOrEqual(0);
    expect(
      await subject.alerts.pendingMailSince(new Date(Date.UTC(2020, 0, 2)), 1000),
    ).not.toContain(newer.id);
    const at = new Date(Date.UTC(2026, 0, 5));
    expect(await subject.alerts.markMailSent(older.id, at)).toBe(true);
    expect(await subject.alerts.markMailSent(older.id, at)).toBe(false);
    expect(await subject.alerts.markMailAbandoned(older.id, at)).toBe(false);
    expect(await subject.alerts.findPendingMail(older.id)).toBeNull();
    expect(await subject.alerts.markMailAbandoned(newer.id, at)).toBe(true);
    const after = await subject.alerts.pendingMailSince(new Date(Date.UTC(2020, 0, 3)), 1000);
    expect(after).not.toContain(older.id);
    expect(after).not.toContain(newer.id);
  });
}
