import { Budget, BudgetOwner, BudgetPeriod, BudgetScope } from '../../domain/budget';

export interface NewBudget {
  owner: BudgetOwner;
  name: string;
  amount: string;
  period: BudgetPeriod;
  scope: BudgetScope;
  thresholds: number[];
  createdAt: Date;
}

/** What an update may change; a field left out stays as it is. */
export interface BudgetChanges {
  name?: string;
  amount?: string;
  thresholds?: number[];
  scope?: Partial<BudgetScope>;
  updatedAt: Date;
}

/** Budgets by owner key (billing's `owner_key`). Joins the caller's unit of work. */
export abstract class BudgetRepository {
  /**
   * Holds the owner's budget lock until the unit of work ends: creates (the per-owner
   * limit) and evaluations (one at a time per owner) of one owner take turns.
   */
  abstract lockOwner(ownerKey: number): Promise<void>;

  /** Stores a new budget under a fresh id. */
  abstract insert(budget: NewBudget): Promise<Budget>;

  abstract countByOwner(ownerKey: number): Promise<number>;

  /** The owner's budgets, oldest first. */
  abstract listByOwner(ownerKey: number): Promise<Budget[]>;

  /** The owner's budget of this id, or null (another owner's budget is none of theirs). */
  abstract findForOwner(id: number, ownerKey: number): Promise<Budget | null>;

  /** The updated budget, or null when the owner has none of this id. */
  abstract update(id: number, ownerKey: number, changes: BudgetChanges): Promise<Budget | null>;

  /** False when the owner has none of this id. Its alerts go with it. */
  abstract delete(id: number, ownerKey: number): Promise<boolean>;

  /** Every owner key that has a budget, ascending. */
  abstract ownerKeys(): Promise<number[]>;
}
