import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/platform';
import { SmsSendingPolicy, SmsSendRequest } from '../application/ports/sms-sending-policy.port';

/** Accounts flagged for SMS pumping get no SMS until support clears the flag. */
@Injectable()
export class FlaggedAccountSmsPolicy extends SmsSendingPolicy {
  async assertMaySend(request: SmsSendRequest): Promise<void> {
    if (request.smsFraudFlagged)
      throw new DomainError(
        'sms_fraud_detected',
        'SMS sending is disabled for this account; contact support.',
      );
  }
}
