import { Injectable } from '@nestjs/common';
import { EmailSendingPolicy, EmailSendRequest } from '../ports/email-sending-policy.port';

/** The email budgets around a send, for every route that mails a code. */
@Injectable()
export class EmailBudget {
  constructor(private readonly policy: EmailSendingPolicy) {}

  /**
   * Runs `send` within the email budgets, counted before anything is queued. A send refused
   * before it was queued (a check of the use case, a challenge gone meanwhile, a store that
   * is away) gives the budget back; an email's delivery failure is no refusal (it was sent).
   */
  async spend<T>(request: EmailSendRequest, send: () => Promise<T>): Promise<T> {
    const permit = await this.policy.assertMaySend(request);
    try {
      return await send();
    } catch (error) {
      await permit.refund().catch(() => undefined);
      throw error;
    }
  }
}
