export interface SmsSendRequest {
  userId: number;
  destination: string;
  /** Re-sending an existing challenge's code: exempt from the per-number minimum interval. */
  resend: boolean;
  smsFraudFlagged: boolean;
}

/** An admitted send, already recorded against the budgets. */
export interface SmsSendPermit {
  /** Gives the budget back: the send was refused after all and nothing was queued. */
  refund(): Promise<void>;
}

/**
 * Checks before an SMS is queued: flagged accounts (sms_fraud_detected), number screening
 * (bad_request, sms_blocked_number), per-user and per-number budgets (sms_rate_limited,
 * tfa_challenge_exists) and the accounts-per-number cap (preauth_phone_cap).
 * An admitted send is recorded against the budgets; a refused one costs nothing.
 */
export abstract class SmsSendingPolicy {
  abstract assertMaySend(request: SmsSendRequest): Promise<SmsSendPermit>;
}
