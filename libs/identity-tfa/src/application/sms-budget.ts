import { DomainError } from '@app/platform';
import { SmsSendingPolicy, SmsSendRequest } from './ports/sms-sending-policy.port';

/** Refusals that come back from the provider: the message was queued, the send happened. */
const AFTER_QUEUEING = new Set(['twilio_error', 'twilio_rate_limited']);

export function isProviderRefusal(error: unknown): boolean {
  return error instanceof DomainError && AFTER_QUEUEING.has(error.code);
}

/**
 * Runs `send` within the SMS budgets: only a send that is queued is charged. Anything that
 * refuses it before (a check of the use case, a challenge gone meanwhile, a store that is
 * away) gives the budget back.
 */
export async function withinSmsBudget<T>(
  policy: SmsSendingPolicy,
  request: SmsSendRequest,
  send: () => Promise<T>,
): Promise<T> {
  const permit = await policy.assertMaySend(request);
  try {
    return await send();
  } catch (error) {
    if (!isProviderRefusal(error)) await permit.refund().catch(() => undefined);
    throw error;
  }
}
