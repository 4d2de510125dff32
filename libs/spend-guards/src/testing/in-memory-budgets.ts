import { Transactional } from '@app/platform/testing';
import { BudgetRepository, NewBudget } from '../application/ports/budget.repository.port';
import { Budget } from '../domain/budget';

/**
 * The rows as a map; a failed unit of work over fakes (SnapshotUnitOfWork) takes them back.
 * Ids are not taken back, as a PostgreSQL identity's are not.
 */
export class InMemoryBudgetRepository extends BudgetRepository implements Transactional {
  readonly rows = new Map<number, Budget>();
  private sequence = 1;

  snapshot(): () => void {
    const rows = [...this.rows];
    return () => {
      this.rows.clear();
      for (const [id, row] of rows) this.rows.set(id, row);
    };
  }

  async insert(budget: NewBudget): Promise<Budget> {
    const stored = { id: this.sequence++, ...budget };
    this.rows.set(stored.id, stored);
    return { ...stored };
  }

  async listByUser(userId: number): Promise<Budget[]> {
    return [...this.rows.values()]
      .filter((budget) => budget.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map((budget) => ({ ...budget }));
  }
}
