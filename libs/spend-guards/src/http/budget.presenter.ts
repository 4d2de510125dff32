import { Budget } from '../domain/budget';
import { BudgetDto } from './budget.response.dto';

export function presentBudget(budget: Budget): BudgetDto {
  return {
    id: budget.id,
    name: budget.name,
    created_at: Math.floor(budget.createdAt.getTime() / 1000),
  };
}
