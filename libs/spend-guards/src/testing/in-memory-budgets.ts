import { Transactional } from '@app/platform/testing';
import {
  BudgetChanges,
  BudgetRepository,
  NewBudget,
} from '../application/ports/budget.repository.port';
import { Budget, budgetOwnerKey } from '../domain/budget';

/**
 * The rows as a map; a failed unit of work over fakes (SnapshotUnitOfWork) takes them back.
 * Ids are not taken back, as a PostgreSQL identity's are not. The owner lock is a no-op:
 * the fakes run one use case at a time.
 */
export class InMemoryBudgetRepository extends BudgetRepository implements Transactional {
  readonly rows = new Map<number, Budget>();
  readonly locked: number[] = [];
  private sequence = 1;

  snapshot(): () => void {
    const rows = [...this.rows];
    return () => {
      this.rows.clear();
      for (const [id, row] of rows) this.rows.set(id, row);
    };
  }

  async lockOwner(ownerKey: number): Promise<void> {
    this.locked.push(ownerKey);
  }

  async insert(budget: NewBudget): Promise<Budget> {
    const stored: Budget = {
      id: this.sequence++,
      ...budget,
      owner: { ...budget.owner },
      ownerKey: budgetOwnerKey(budget.owner),
      scope: { ...budget.scope },
      thresholds: [...budget.thresholds],
      updatedAt: budget.createdAt,
    };
    this.rows.set(stored.id, stored);
    return copy(stored);
  }

  async countByOwner(ownerKey: number): Promise<number> {
    return (await this.listByOwner(ownerKey)).length;
  }

  async listByOwner(ownerKey: number): Promise<Budget[]> {
    return [...this.rows.values()]
      .filter((budget) => budget.ownerKey === ownerKey)
      .sort((a, b) => a.id - b.id)
      .map(copy);
  }

  async findForOwner(id: number, ownerKey: number): Promise<Budget | null> {
    const budget = this.rows.get(id);
    return budget && budget.ownerKey === ownerKey ? copy(budget) : null;
  }

  async update(id: number, ownerKey: number, changes: BudgetChanges): Promise<Budget | null> {
    const budget = this.rows.get(id);
    if (!budget || budget.ownerKey !== ownerKey) return null;
    const updated: Budget = {
      ...budget,
      name: changes.name ?? budget.name,
      amount: changes.amount ?? budget.amount,
      thresholds: changes.thresholds ? [...changes.thresholds] : budget.thresholds,
      scope: { ...budget.scope, ...(changes.scope ?? {}) },
      updatedAt: changes.updatedAt,
    };
    this.rows.set(id, updated);
    return copy(updated);
  }

  async delete(id: number, ownerKey: number): Promise<boolean> {
    const budget = this.rows.get(id);
    if (!budget || budget.ownerKey !== ownerKey) return false;
    this.rows.delete(id);
    return true;
  }

  async ownerKeys(): Promise<number[]> {
    return [...new Set([...this.rows.values()].map((budget) => budget.ownerKey))].sort(
      (a, b) => a - b,
    );
  }
}

function copy(budget: Budget): Budget {
  return {
    ...budget,
    owner: { ...budget.owner },
    scope: { ...budget.scope },
    thresholds: [...budget.thresholds],
  };
}
