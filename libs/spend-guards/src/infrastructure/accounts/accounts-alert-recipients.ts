import { Injectable } from '@nestjs/common';
import { TeamContacts, UserRepository } from '@app/accounts';
import { AlertRecipient, AlertRecipients } from '../../application/ports/alert-recipients.port';
import { BudgetOwner } from '../../domain/budget';

/** A user's own address; a team's owner and managers' (accounts' TeamContacts). */
@Injectable()
export class AccountsAlertRecipients extends AlertRecipients {
  constructor(
    private readonly users: UserRepository,
    private readonly teams: TeamContacts,
  ) {
    super();
  }

  async of(owner: BudgetOwner): Promise<AlertRecipient[]> {
    if (owner.teamId !== null) return this.teams.of(owner.teamId);
    const user = owner.userId === null ? null : await this.users.findById(owner.userId);
    return user?.email ? [{ userId: user.id, email: user.email }] : [];
  }
}
