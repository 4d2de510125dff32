import { BUDGET_NAME_MAX_LENGTH, budgetNameProblem } from './budget';

describe('budgetNameProblem', () => {
  it('accepts a name of printable characters up to the maximum length', () => {
    expect(budgetNameProblem('first')).toBeNull();
    expect(budgetNameProblem('x'.repeat(BUDGET_NAME_MAX_LENGTH))).toBeNull();
  });

  it('names the first rule a name breaks', () => {
    expect(budgetNameProblem('  ')).toBe('name must not be empty');
    expect(budgetNameProblem('x'.repeat(BUDGET_NAME_MAX_LENGTH + 1))).toBe(
      `name must be at most ${BUDGET_NAME_MAX_LENGTH} characters`,
    );
    expect(budgetNameProblem('a\nb')).toBe('name must not contain control characters');
  });
});
