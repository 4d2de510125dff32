import { Injectable } from '@nestjs/common';
import { isProviderRefusal } from '../../domain/sms-sending';
import { SmsSendingPolicy, SmsSendRequest } from '../ports/sms-sending-policy.port';

/** The SMS budgets around a send, for every route that sends an SMS. */
@Injectable()
export class SmsBudget {
  constructor(private readonly policy: SmsSendingPolicy) {}

  /**
   * Runs `send` within the SMS budgets: only a send that is queued is charged. Anything that
   * refuses it before (a check of the use case, a challenge gone meanwhile, a store that is
   * away) gives the budget back.
   */
  async spend<T>(request: SmsSendRequest, send: () => Promise<T>): Promise<T> {
    const permit = await this.policy.assertMaySend(request);
    try {
      return await send();
    } catch (error) {
      if (!isProviderRefusal(error)) await permit.refund().catch(() => undefined);
      throw error;
    }
  }
}
