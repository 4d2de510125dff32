import {
  BUDGET_NAME_MAX_LENGTH,
  budgetNameProblem,
  budgetOwnerKey,
  budgetOwnerOf,
  formatThousandths,
  parseBudgetAmount,
  periodProblem,
  scopeProblem,
  sortedThresholds,
  thresholdsProblem,
  toThousandths,
} from './budget';

describe('budgetNameProblem', () => {
  it('accepts a name of printable characters up to the maximum length', () => {
    expect(budgetNameProblem('first')).toBeNull();
    expect(budgetNameProblem('x'.repeat(BUDGET_NAME_MAX_LENGTH))).toBeNull();
    expect(budgetNameProblem('é'.repeat(BUDGET_NAME_MAX_LENGTH))).toBeNull();
  });

  it('names the first rule a name breaks', () => {
    expect(budgetNameProblem('  ')).toBe('name must not be empty');
    expect(budgetNameProblem('x'.repeat(BUDGET_NAME_MAX_LENGTH + 1))).toBe(
      `name must be at most ${BUDGET_NAME_MAX_LENGTH} characters`,
    );
    expect(budgetNameProblem('a\nb')).toBe('name must not contain control characters');
    expect(budgetNameProblem('a\u0085b')).toBe('name must not contain control characters');
  });
});

describe('parseBudgetAmount', () => {
  it('takes a JSON number or a decimal string, kept with 3 decimals', () => {
    expect(parseBudgetAmount(250)).toEqual({ amount: '250.000' });
    expect(parseBudgetAmount(0.5)).toEqual({ amount: '0.500' });
    expect(parseBudgetAmount('12.345')).toEqual({ amount: '12.345' });
    expect(parseBudgetAmount('0.001')).toEqual({ amount: '0.001' });
    expect(parseBudgetAmount(1e9)).toEqual({ amount: '1000000000.000' });
    expect(parseBudgetAmount('1000000000.000')).toEqual({ amount: '1000000000.000' });
  });

  it('refuses 0, negatives, more than 3 decimals, more than 1e9 and what is not a number', () => {
    const problem = (value: unknown) => (parseBudgetAmount(value) as { problem: string }).problem;
    expect(problem(0)).toBe('amount must be greater than 0');
    expect(problem('0.000')).toBe('amount must be greater than 0');
    expect(problem(-1)).toBe('amount must be a decimal number such as 250 or "250.50"');
    expect(problem('1.2345')).toBe('amount must have at most 3 decimals');
    expect(problem(0.1 + 0.2)).toBe('amount must have at most 3 decimals');
    expect(problem('1000000000.001')).toBe('amount must be at most 1000000000');
    expect(problem(1e21)).toBe('amount must be a decimal number such as 250 or "250.50"');
    expect(problem('1e3')).toBe('amount must be a decimal number such as 250 or "250.50"');
    expect(problem('')).toBe('amount must be a decimal number such as 250 or "250.50"');
    expect(problem(Number.NaN)).toBe('amount must be a number');
    expect(problem(true)).toBe('amount must be a number or a decimal string');
    expect(problem(null)).toBe('amount must be a number or a decimal string');
  });
});

describe('thresholdsProblem', () => {
  it('accepts 1 to 10 distinct integer percents from 1 to 1000', () => {
    expect(thresholdsProblem([50, 80, 100])).toBeNull();
    expect(thresholdsProblem([1])).toBeNull();
    expect(thresholdsProblem([1000, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toBeNull();
  });

  it('names what is wrong', () => {
    expect(thresholdsProblem('50')).toBe('thresholds must be a list of integer percents');
    expect(thresholdsProblem([])).toBe('thresholds must hold 1 to 10 percents');
    expect(thresholdsProblem([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).toBe(
      'thresholds must hold 1 to 10 percents',
    );
    for (const bad of [0, 1001, 50.5, '50', null])
      expect(thresholdsProblem([bad])).toBe('thresholds must be integers from 1 to 1000');
    expect(thresholdsProblem([80, 80])).toBe('thresholds must be distinct');
  });

  it('keeps them ascending', () => {
    expect(sortedThresholds([100, 50, 80])).toEqual([50, 80, 100]);
  });
});

describe('periodProblem and scopeProblem', () => {
  it('knows the three periods', () => {
    for (const period of ['day', 'week', 'month']) expect(periodProblem(period)).toBeNull();
    expect(periodProblem('year')).toBe('period must be one of day, week, month');
  });

  it('checks each scope key given', () => {
    expect(scopeProblem({})).toBeNull();
    expect(scopeProblem({ label: 'train', endpointId: 5, workergroupId: null })).toBeNull();
    expect(scopeProblem({ label: '' })).toBe('label must be a non-empty string');
    expect(scopeProblem({ label: 'x'.repeat(101) })).toBe('label must be at most 100 characters');
    expect(scopeProblem({ label: 'a\tb' })).toBe('label must not contain control characters');
    expect(scopeProblem({ endpointId: 0 })).toBe('endpoint_id must be a positive integer');
    expect(scopeProblem({ workergroupId: '7' })).toBe('workergroup_id must be a positive integer');
    expect(scopeProblem({ workergroupId: 2 ** 31 })).toBe(
      'workergroup_id must be a positive integer',
    );
  });
});

describe('owners', () => {
  it("is the team in a team's context, else the user, keyed as billing keys charges", () => {
    expect(budgetOwnerOf({ userId: 7, teamId: null })).toEqual({ userId: 7, teamId: null });
    expect(budgetOwnerOf({ userId: 7, teamId: 3 })).toEqual({ userId: null, teamId: 3 });
    expect(budgetOwnerKey({ userId: 7, teamId: null })).toBe(7);
    expect(budgetOwnerKey({ userId: null, teamId: 3 })).toBe(-3);
  });
});

describe('thousandths', () => {
  it('reads and writes decimals exactly', () => {
    expect(toThousandths('12.5')).toBe(12_500n);
    expect(toThousandths('-0.001')).toBe(-1n);
    expect(toThousandths('7')).toBe(7_000n);
    expect(formatThousandths(12_500n)).toBe('12.500');
    expect(formatThousandths(-1n)).toBe('-0.001');
    expect(formatThousandths(0n)).toBe('0.000');
  });
});
