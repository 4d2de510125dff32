import { Injectable } from '@nestjs/common';
import { TransactionalEntityManager } from '@app/platform';
import { BudgetAlertRepository } from '../../application/ports/budget-alert.repository.port';
import { BudgetAlert, BudgetAlertNotice, NewBudgetAlert } from '../../domain/budget-alert';
import { ALERT_COLUMNS, BudgetAlertRow, BudgetRow, toBudget, toBudgetAlert } from './budget.mapper';

@Injectable()
export class PostgresBudgetAlertRepository extends BudgetAlertRepository {
  constructor(private readonly tx: TransactionalEntityManager) {
    super();
  }

  async insertOnce(alert: NewBudgetAlert): Promise<BudgetAlert | null> {
    const rows = await this.tx.rows<BudgetAlertRow>(
      `INSERT INTO budget_alerts AS a
         (budget_id, threshold, period_start, period_end, spent, amount, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (budget_id, period_start, threshold) DO NOTHING
       RETURNING ${ALERT_COLUMNS}`,
      [
        alert.budgetId,
        alert.threshold,
        alert.period.start,
        alert.period.end,
        alert.spent,
        alert.amount,
        alert.createdAt,
      ],
    );
    return rows.length > 0 ? toBudgetAlert(rows[0]) : null;
  }

  async listByBudget(budgetId: number, limit: number): Promise<BudgetAlert[]> {
    const rows = await this.tx.rows<BudgetAlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM budget_alerts a
        WHERE a.budget_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
      [budgetId, limit],
    );
    return rows.map(toBudgetAlert);
  }

  async findPendingMail(alertId: number): Promise<BudgetAlertNotice | null> {
    const rows = await this.tx.rows<BudgetAlertRow & { budget: BudgetRow }>(
      `SELECT ${ALERT_COLUMNS},
              json_build_object(
                'id', b.id, 'user_id', b.user_id, 'team_id', b.team_id, 'owner_key', b.owner_key,
                'name', b.name, 'amount', b.amount::text, 'period', b.period, 'label', b.label,
                'endpoint_id', b.endpoint_id, 'workergroup_id', b.workergroup_id,
                'thresholds', b.thresholds, 'created_at', b.created_at, 'updated_at', b.updated_at
              ) AS budget
         FROM budget_alerts a JOIN budgets b ON b.id = a.budget_id
        WHERE a.id = $1 AND a.mail_sent_at IS NULL AND a.mail_abandoned_at IS NULL`,
      [alertId],
    );
    if (rows.length === 0) return null;
    const budget = rows[0].budget;
    return {
      alert: toBudgetAlert(rows[0]),
      budget: toBudget({
        ...budget,
        created_at: new Date(budget.created_at),
        updated_at: new Date(budget.updated_at),
      }),
    };
  }

  markMailSent(alertId: number, at: Date): Promise<boolean> {
    return this.settle(alertId, 'mail_sent_at', at);
  }

  markMailAbandoned(alertId: number, at: Date): Promise<boolean> {
    return this.settle(alertId, 'mail_abandoned_at', at);
  }

  /** Settles a pending mail once: false when it was already sent or abandoned. */
  private async settle(
    alertId: number,
    column: 'mail_sent_at' | 'mail_abandoned_at',
    at: Date,
  ): Promise<boolean> {
    const rows = await this.tx.rows(
      `UPDATE budget_alerts SET ${column} = $2
        WHERE id = $1 AND mail_sent_at IS NULL AND mail_abandoned_at IS NULL
        RETURNING id`,
      [alertId, at],
    );
    return rows.length > 0;
  }

  async pendingMailSince(createdBefore: Date, limit: number): Promise<number[]> {
    const rows = await this.tx.rows<{ id: string }>(
      `SELECT id FROM budget_alerts
        WHERE mail_sent_at IS NULL AND mail_abandoned_at IS NULL AND created_at < $1
        ORDER BY created_at, id LIMIT $2`,
      [createdBefore, limit],
    );
    return rows.map((row) => Number(row.id));
  }
}
