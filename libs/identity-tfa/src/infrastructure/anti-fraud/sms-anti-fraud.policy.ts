import { TfaError } from '../../domain/errors';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/platform';
import {
  SmsSendingPolicy,
  SmsSendPermit,
  SmsSendRequest,
} from '../../application/ports/sms-sending-policy.port';
import { isBlockedDestination } from '../../domain/blocked-destinations';
import { parsePhoneNumber } from '../../domain/phone-number';
import { RedisSmsSendCounters } from './redis-sms-send-counters';
import { SmsAntiFraudSettings } from './sms-anti-fraud-settings';

const REFUSALS: Record<string, string> = {
  preauth_phone_cap:
    'This phone number was used for verification by too many accounts; try again later.',
  sms_rate_limited: 'Too many SMS codes requested; wait a few minutes before trying again.',
  tfa_challenge_exists: 'A code was sent to this number moments ago: use resend.',
};

/**
 * Every SMS passes here before it is queued, cheapest refusal first: a flagged account,
 * a blocked number, then the shared counters (which record the send when they admit it).
 */
@Injectable()
export class SmsAntiFraudPolicy extends SmsSendingPolicy {
  constructor(
    private readonly counters: RedisSmsSendCounters,
    private readonly settings: SmsAntiFraudSettings,
    private readonly clock: Clock,
  ) {
    super();
  }

  async assertMaySend(request: SmsSendRequest): Promise<SmsSendPermit> {
    if (request.smsFraudFlagged)
      throw new TfaError(
        'sms_fraud_detected',
        'SMS sending is disabled for this account; contact support.',
      );
    const phone = parsePhoneNumber(request.destination);
    if (isBlockedDestination(phone, this.settings))
      throw new TfaError(
        'sms_blocked_number',
        'SMS codes cannot be sent to this number; use another number or an authenticator app.',
      );
    const verdict = await this.counters.checkAndRecord({
      userId: request.userId,
      destination: phone.e164,
      resend: request.resend,
      nowMs: this.clock.nowMs(),
    });
    if (verdict.verdict !== 'admitted')
      throw new TfaError(verdict.verdict, REFUSALS[verdict.verdict]);
    return { refund: () => this.counters.refund(verdict.record) };
  }
}
