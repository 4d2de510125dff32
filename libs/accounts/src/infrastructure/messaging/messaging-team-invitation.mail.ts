import { Injectable, Logger } from '@nestjs/common';
import {
  invitationDeliveryKey,
  TEAM_INVITATION_JOB,
  TeamInvitationJob,
  TeamInvitationMail,
} from '../../application/ports/team-invitation-mail.port';
import { MessageQueue } from '@app/messaging';
import { UnitOfWork } from '@app/platform';

/**
 * Accounts' TeamInvitationMail: the invitation's job rides the message queue (same worker,
 * providers, retries and ledger as codes and notices), queued once the invitation
 * committed. The payload is the invitation's id only, never its token.
 */
@Injectable()
export class MessagingTeamInvitationMail extends TeamInvitationMail {
  private readonly logger = new Logger('TeamInvitations');

  constructor(
    private readonly messages: MessageQueue,
    private readonly uow: UnitOfWork,
  ) {
    super();
  }

  queue(invitationId: number): void {
    this.uow.afterCommit(async () => {
      const job: TeamInvitationJob = { invitationId };
      try {
        await this.messages.enqueue(
          { name: TEAM_INVITATION_JOB, key: invitationDeliveryKey(job), data: job },
          { awaitFirstAttempt: false },
        );
      } catch (error) {
        // Inviting the address again queues a new mail.
        this.logger.warn(`invitation ${invitationId} not queued: ${(error as Error).message}`);
      }
    });
  }
}
