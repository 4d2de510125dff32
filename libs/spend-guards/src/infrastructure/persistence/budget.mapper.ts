import { Budget } from '../../domain/budget';

/** A row of spend_guards as the pg driver returns it. */
export interface BudgetRow {
  id: number;
  user_id: number;
  name: string;
  created_at: Date;
}

export const BUDGET_COLUMNS = 'id, user_id, name, created_at';

export function toBudget(row: BudgetRow): Budget {
  return { id: row.id, userId: row.user_id, name: row.name, createdAt: row.created_at };
}
