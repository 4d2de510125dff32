export interface SmsSendRequest {
  userId: number;
  destination: string;
  /** login (pre-authentication) sends are the ones SMS pumping abuses. */
  purpose: 'login' | 'verify' | 'authorize';
  smsFraudFlagged: boolean;
}

/**
 * Checks before an SMS is queued. The rule set here refuses flagged accounts
 * (sms_fraud_detected); rate limits, per-phone caps (preauth_phone_cap, sms_rate_limited)
 * and number screening (sms_blocked_number) plug in behind the same port.
 */
export abstract class SmsSendingPolicy {
  abstract assertMaySend(request: SmsSendRequest): Promise<void>;
}
