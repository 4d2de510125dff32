/** A budget: something a user owns, by name. */
export interface Budget {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly createdAt: Date;
}

export const BUDGET_NAME_MAX_LENGTH = 100;

/** Why `name` cannot name a budget, or null when it can. */
export function budgetNameProblem(name: string): string | null {
  if (name.trim().length === 0) return 'name must not be empty';
  if (name.length > BUDGET_NAME_MAX_LENGTH)
    return `name must be at most ${BUDGET_NAME_MAX_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'name must not contain control characters';
  return null;
}
