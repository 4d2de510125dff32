/**
 * Mails a team invitation to its address, through the delivery queue. Called inside the
 * unit of work that stored the invitation: the mail is queued once it commits, and never
 * for one rolled back. The job carries the invitation's id only; the worker reads the
 * rest (`TeamInvitationLetters`).
 */
export abstract class TeamInvitationMail {
  abstract queue(invitationId: number): void;
}

/** The job of a team invitation's mail: which invitation; the worker reads the rest. */
export interface TeamInvitationJob {
  invitationId: number;
}

/** Its name on the message queue. */
export const TEAM_INVITATION_JOB = 'deliver-invitation';

/** One job and one ledger key per invitation: a retried enqueue never mails twice. */
export function invitationDeliveryKey(job: TeamInvitationJob): string {
  return `invitation-${job.invitationId}`;
}

/** CODE_MESSAGE_BRAND: the product's name in the invitation's wording, as in codes and notices. */
export class TeamInvitationMailSettings {
  brand = 'GPU Marketplace';
}
