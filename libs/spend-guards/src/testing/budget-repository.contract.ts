import { BudgetRepository } from '../application/ports/budget.repository.port';
import { testBudget } from './spend-guards-kit';

/** What the contract runs against: a repository and two users. */
export interface BudgetRepositorySubject {
  repository: BudgetRepository;
  owner: number;
  stranger: number;
}

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL, so
 * the fake the use-case tests rely on keeps to what the real repository does
 * (docs/architecture.md "Where do tests go?").
 */
export function budgetRepositoryContract(setup: () => Promise<BudgetRepositorySubject>): void {
  let subject: BudgetRepositorySubject;

  beforeAll(async () => {
    subject = await setup();
  });

  it('stores a budget exactly, under a fresh id', async () => {
    const row = testBudget({ userId: subject.owner });
    const first = await subject.repository.insert(row);
    const second = await subject.repository.insert(row);
    expect(first).toEqual({ id: expect.any(Number), ...row });
    expect(second.id).toBeGreaterThan(first.id);
  });

  it("lists a user's budgets only, oldest first", async () => {
    const mine = [
      await subject.repository.insert(testBudget({ userId: subject.owner, name: 'a' })),
      await subject.repository.insert(testBudget({ userId: subject.owner, name: 'b' })),
    ];
    const theirs = await subject.repository.insert(testBudget({ userId: subject.stranger }));
    const listed = await subject.repository.listByUser(subject.owner);
    expect(listed.map((budget) => budget.id)).toEqual(
      [...listed.map((budget) => budget.id)].sort((a, b) => a - b),
    );
    expect(listed).toEqual(expect.arrayContaining(mine));
    expect(listed).not.toContainEqual(theirs);
  });
}
