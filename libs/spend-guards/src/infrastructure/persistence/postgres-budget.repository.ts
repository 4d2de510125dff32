import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { BudgetRepository, NewBudget } from '../../application/ports/budget.repository.port';
import { Budget } from '../../domain/budget';
import { BUDGET_COLUMNS, BudgetRow, toBudget } from './budget.mapper';

@Injectable()
export class PostgresBudgetRepository extends BudgetRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async insert(budget: NewBudget): Promise<Budget> {
    const [row] = await this.tx.rows<BudgetRow>(
      `INSERT INTO spend_guards (user_id, name, created_at) VALUES ($1, $2, $3)
       RETURNING ${BUDGET_COLUMNS}`,
      [budget.userId, budget.name, budget.createdAt],
    );
    return toBudget(row);
  }

  async listByUser(userId: number): Promise<Budget[]> {
    const rows = await this.tx.rows<BudgetRow>(
      `SELECT ${BUDGET_COLUMNS} FROM spend_guards WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    return rows.map(toBudget);
  }
}
