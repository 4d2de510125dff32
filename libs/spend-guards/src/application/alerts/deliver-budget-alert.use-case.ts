import { Injectable, Logger } from '@nestjs/common';
import { JobAttempt, MessageSender } from '@app/messaging';
import { Clock } from '@app/platform';
import { budgetAlertContent } from '../../domain/budget-alert-message-text';
import { BudgetSettings } from '../../domain/spend-guards-settings';
import { AlertRecipients } from '../ports/alert-recipients.port';
import { BudgetAlertMailJob, budgetAlertSendKey } from '../ports/budget-alert-mail.queue.port';
import { BudgetAlertRepository } from '../ports/budget-alert.repository.port';

export type AlertMailOutcome = 'sent' | 'abandoned' | 'gone';

/**
 * The worker's alert job: the alert's email, worded from the alert alone, to each
 * recipient of the budget's owner, each through messaging's exactly-once send under its
 * own key (`budget-alert-<alert id>-to-<user id>`), so a retried, swept or taken-over job
 * never mails anyone twice. Once every recipient was sent (or refused for good) the mail
 * stops being pending; a retryable failure is thrown for the queue's backoff.
 */
@Injectable()
export class DeliverBudgetAlertUseCase {
  private readonly logger = new Logger('BudgetAlerts');

  constructor(
    private readonly alerts: BudgetAlertRepository,
    private readonly recipients: AlertRecipients,
    private readonly sender: MessageSender,
    private readonly settings: BudgetSettings,
    private readonly clock: Clock,
  ) {}

  async execute(job: BudgetAlertMailJob, attempt: JobAttempt): Promise<AlertMailOutcome> {
    const notice = await this.alerts.findPendingMail(job.alertId);
    if (!notice) return 'gone';
    const recipients = await this.recipients.of(notice.budget.owner);
    if (recipients.length === 0) {
      await this.alerts.markMailAbandoned(job.alertId, this.clock.now());
      this.logger.warn(`mail of budget alert ${job.alertId} abandoned: nobody to send it to`);
      return 'abandoned';
    }
    const content = budgetAlertContent(this.settings.messageBrand, notice);
    let sent = 0;
    for (const recipient of recipients) {
      const result = await this.sender.send({
        message: {
          channel: 'email',
          destination: recipient.email,
          content,
          kind: 'notice',
          idempotencyKey: budgetAlertSendKey(job, recipient.userId),
          // Nobody waits to decide on an alert: the provider's rate limits are retried.
          requesterDecides: false,
        },
        ...attempt,
      });
      if (result.outcome !== 'abandoned') sent += 1;
    }
    if (sent === 0) {
      await this.alerts.markMailAbandoned(job.alertId, this.clock.now());
      return 'abandoned';
    }
    await this.alerts.markMailSent(job.alertId, this.clock.now());
    return 'sent';
  }
}
