export interface EmailSendRequest {
  userId: number;
  /** The address the code goes to. */
  destination: string;
}

/** An admitted email send, already recorded against the budgets. */
export interface EmailSendPermit {
  /** Gives the budget back: the send was refused after all and nothing was queued. */
  refund(): Promise<void>;
}

/**
 * The budgets every email code passes before it is queued, as SMS codes have theirs: per
 * user and per address (sms_rate_limited, the one rate-limit code of the 2FA
 * tables). An admitted send is recorded against the budgets; a refused one costs nothing.
 */
export abstract class EmailSendingPolicy {
  abstract assertMaySend(request: EmailSendRequest): Promise<EmailSendPermit>;
}
