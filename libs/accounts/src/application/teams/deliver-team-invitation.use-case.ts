import { Injectable } from '@nestjs/common';
import { JobAttempt, MessageSender } from '@app/messaging';
import { invitationContent } from '../../domain/team-invitation-message-text';
import {
  invitationDeliveryKey,
  TeamInvitationJob,
  TeamInvitationMailSettings,
} from '../ports/team-invitation-mail.port';
import { TeamInvitationLetters } from './team-invitation-letters.service';

export type InvitationOutcome = 'sent' | 'abandoned' | 'gone';

/**
 * The worker's invitation job: the invitation's mail, worded here, to the invited
 * address through messaging's exactly-once send as notices are (key `invitation-<id>`). An
 * invitation that ended or expired before its turn is not mailed.
 */
@Injectable()
export class DeliverTeamInvitationUseCase {
  constructor(
    private readonly letters: TeamInvitationLetters,
    private readonly sender: MessageSender,
    private readonly settings: TeamInvitationMailSettings,
  ) {}

  async execute(job: TeamInvitationJob, attempt: JobAttempt): Promise<InvitationOutcome> {
    const letter = await this.letters.letter(job.invitationId);
    if (!letter) return 'gone';
    const result = await this.sender.send({
      message: {
        channel: 'email',
        destination: letter.email,
        content: invitationContent(this.settings.brand, letter),
        // A mail without a code: the outbox keeps it with the notices.
        kind: 'notice',
        idempotencyKey: invitationDeliveryKey(job),
        // Nobody waits to decide on an invitation: the provider's rate limits are retried.
        requesterDecides: false,
      },
      ...attempt,
    });
    return result.outcome === 'abandoned' ? 'abandoned' : 'sent';
  }
}
