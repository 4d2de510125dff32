import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import {
  BudgetChanges,
  BudgetRepository,
  NewBudget,
} from '../../application/ports/budget.repository.port';
import { Budget } from '../../domain/budget';
import { BUDGET_COLUMNS, BudgetRow, toBudget } from './budget.mapper';

/** Advisory lock space of an owner's budgets (two-key form: apart from billing's keys). */
const BUDGET_OWNER_LOCK_SPACE = 0x7fa0_0601;

@Injectable()
export class PostgresBudgetRepository extends BudgetRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async lockOwner(ownerKey: number): Promise<void> {
    await this.tx.rows(`SELECT pg_advisory_xact_lock($1, $2)`, [BUDGET_OWNER_LOCK_SPACE, ownerKey]);
  }

  async insert(budget: NewBudget): Promise<Budget> {
    const [row] = await this.tx.rows<BudgetRow>(
      `INSERT INTO budgets
         (user_id, team_id, name, amount, period, label, endpoint_id, workergroup_id,
          thresholds, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       RETURNING ${BUDGET_COLUMNS}`,
      [
        budget.owner.userId,
        budget.owner.teamId,
        budget.name,
        budget.amount,
        budget.period,
        budget.scope.label,
        budget.scope.endpointId,
        budget.scope.workergroupId,
        budget.thresholds,
        budget.createdAt,
      ],
    );
    return toBudget(row);
  }

  async countByOwner(ownerKey: number): Promise<number> {
    const [row] = await this.tx.rows<{ count: number }>(
      `SELECT count(*)::integer AS count FROM budgets WHERE owner_key = $1`,
      [ownerKey],
    );
    return row.count;
  }

  async listByOwner(ownerKey: number): Promise<Budget[]> {
    const rows = await this.tx.rows<BudgetRow>(
      `SELECT ${BUDGET_COLUMNS} FROM budgets WHERE owner_key = $1 ORDER BY id`,
      [ownerKey],
    );
    return rows.map(toBudget);
  }

  async findForOwner(id: number, ownerKey: number): Promise<Budget | null> {
    const rows = await this.tx.rows<BudgetRow>(
      `SELECT ${BUDGET_COLUMNS} FROM budgets WHERE id = $1 AND owner_key = $2`,
      [id, ownerKey],
    );
    return rows.length > 0 ? toBudget(rows[0]) : null;
  }

  async update(id: number, ownerKey: number, changes: BudgetChanges): Promise<Budget | null> {
    // A scope key given (even null) replaces the stored one; one left out stays.
    const scope = changes.scope ?? {};
    const rows = await this.tx.rows<BudgetRow>(
      `UPDATE budgets SET
          name = coalesce($3, name),
          amount = coalesce($4::numeric, amount),
          thresholds = coalesce($5::integer[], thresholds),
          label = CASE WHEN $6 THEN $7 ELSE label END,
          endpoint_id = CASE WHEN $8 THEN $9::integer ELSE endpoint_id END,
          workergroup_id = CASE WHEN $10 THEN $11::integer ELSE workergroup_id END,
          updated_at = $12
        WHERE id = $1 AND owner_key = $2
        RETURNING ${BUDGET_COLUMNS}`,
      [
        id,
        ownerKey,
        changes.name ?? null,
        changes.amount ?? null,
        changes.thresholds ?? null,
        'label' in scope,
        scope.label ?? null,
        'endpointId' in scope,
        scope.endpointId ?? null,
        'workergroupId' in scope,
        scope.workergroupId ?? null,
        changes.updatedAt,
      ],
    );
    return rows.length > 0 ? toBudget(rows[0]) : null;
  }

  async delete(id: number, ownerKey: number): Promise<boolean> {
    const rows = await this.tx.rows(
      `DELETE FROM budgets WHERE id = $1 AND owner_key = $2 RETURNING id`,
      [id, ownerKey],
    );
    return rows.length > 0;
  }

  async ownerKeys(): Promise<number[]> {
    const rows = await this.tx.rows<{ owner_key: number }>(
      `SELECT DISTINCT owner_key FROM budgets ORDER BY owner_key`,
    );
    return rows.map((row) => row.owner_key);
  }
}
