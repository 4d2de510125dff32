import { Injectable } from '@nestjs/common';
import { MessageQueue } from '@app/messaging';
import {
  BUDGET_ALERT_MAIL_JOB,
  BudgetAlertMailJob,
  BudgetAlertMailQueue,
  budgetAlertJobKey,
} from '../../application/ports/budget-alert-mail.queue.port';

/** Alert mails ride the message queue: same worker, providers, retries and ledger as notices. */
@Injectable()
export class MessagingBudgetAlertMailQueue extends BudgetAlertMailQueue {
  constructor(private readonly messages: MessageQueue) {
    super();
  }

  async enqueue(job: BudgetAlertMailJob): Promise<void> {
    // Nobody waits on an alert's mail: the evaluation that queued it goes on at once.
    await this.messages.enqueue(
      { name: BUDGET_ALERT_MAIL_JOB, key: budgetAlertJobKey(job), data: job },
      { awaitFirstAttempt: false },
    );
  }
}
