import { BudgetOwner } from '../../domain/budget';

/** Who is mailed about an owner's budgets (docs/spend-guards.md "Alerts"). */
export interface AlertRecipient {
  userId: number;
  email: string;
}

/**
 * The addresses of an owner: a user's own; a team's members of the owner and manager
 * roles. Accounts' (infrastructure/accounts/accounts-alert-recipients.ts).
 */
export abstract class AlertRecipients {
  abstract of(owner: BudgetOwner): Promise<AlertRecipient[]>;
}
