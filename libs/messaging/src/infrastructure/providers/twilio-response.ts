import { DeliveryFailure } from '../../domain/delivery-failure';
import { SentMessage } from './provider-sender';

/** The parts of a Twilio Messages answer this adapter reads. */
export interface TwilioAnswer {
  status: number;
  body: unknown;
}

interface TwilioErrorBody {
  code?: unknown;
  message?: unknown;
}

function providerCode(body: unknown): number | null {
  const code = (body as TwilioErrorBody | null)?.code;
  return typeof code === 'number' && Number.isInteger(code) ? code : null;
}

/** Twilio's "Too Many Requests" (HTTP 429, error 20429). */
const TWILIO_RATE_LIMIT_CODE = 20429;

/**
 * Maps a Twilio Messages API answer to the message id or a classified failure.
 * 4xx answers (invalid or unreachable number 21211/21614/21612, region not enabled 21408,
 * unsubscribed 21610, bad credentials 20003) will fail the same way again: rejected.
 * 429 is Twilio's own limit; 5xx is Twilio's trouble: both are worth another try.
 */
export function readTwilioAnswer(answer: TwilioAnswer): SentMessage {
  const code = providerCode(answer.body);
  if (answer.status >= 200 && answer.status < 300) {
    const sid = (answer.body as { sid?: unknown } | null)?.sid;
    if (typeof sid === 'string' && sid.length > 0) return { providerMessageId: sid };
    // Accepted by status but unreadable: treat as unknown, so a retry reconciles first.
    throw new DeliveryFailure(
      'sms',
      'transient',
      'Twilio accepted the message without a sid',
      null,
      true,
    );
  }
  if (answer.status === 429 || code === TWILIO_RATE_LIMIT_CODE)
    throw new DeliveryFailure(
      'sms',
      'rate_limited',
      'The SMS provider is rate limiting requests; try again shortly.',
      code,
    );
  if (answer.status >= 400 && answer.status < 500)
    throw new DeliveryFailure(
      'sms',
      'rejected',
      `The SMS provider rejected the message (Twilio ${code ?? `HTTP ${answer.status}`}).`,
      code,
    );
  throw new DeliveryFailure(
    'sms',
    'transient',
    `The SMS provider failed (HTTP ${answer.status}).`,
    code,
  );
}

/** Failures before the request could reach Twilio: nothing was sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/**
 * A request that got no answer. A refused connection sent nothing; a timeout or a
 * connection lost mid-request may have left an accepted message behind.
 */
export function twilioNetworkFailure(error: unknown): DeliveryFailure {
  // fetch aborts with a DOMException, which is not an Error in every realm.
  if ((error as { name?: unknown } | null)?.name === 'TimeoutError')
    return new DeliveryFailure('sms', 'transient', 'The SMS provider timed out.', null, true);
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const connected = !(typeof cause === 'string' && NOT_CONNECTED.has(cause));
  return new DeliveryFailure(
    'sms',
    'transient',
    'The SMS provider could not be reached.',
    null,
    connected,
  );
}
