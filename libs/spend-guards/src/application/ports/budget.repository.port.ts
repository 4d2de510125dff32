import { Budget } from '../../domain/budget';

export interface NewBudget {
  userId: number;
  name: string;
  createdAt: Date;
}

export abstract class BudgetRepository {
  /** Stores a new budget under a fresh id. */
  abstract insert(budget: NewBudget): Promise<Budget>;

  /** The user's budgets, oldest first. */
  abstract listByUser(userId: number): Promise<Budget[]>;
}
