import { DeliveryFailure } from '../../domain/delivery-failure';

/** The fields nodemailer puts on its errors. */
interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
}

/** Errors that mean the server was not reached or the conversation broke off. */
const NETWORK_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'ECONNRESET',
]);

/**
 * SMTP reply codes carry their own class: 4xx is temporary (greylisting, mailbox busy,
 * server shutting down) and worth a retry, 5xx is final (unknown mailbox, policy refusal,
 * bad credentials).
 */
export function classifySmtpError(error: unknown): DeliveryFailure {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  const reply = typeof responseCode === 'number' ? responseCode : null;
  if (reply !== null && reply >= 500)
    return new DeliveryFailure(
      'email',
      'rejected',
      `The mail server refused the message (SMTP ${reply}).`,
      reply,
    );
  if (reply !== null && reply >= 400)
    return new DeliveryFailure(
      'email',
      'transient',
      `The mail server deferred the message (SMTP ${reply}).`,
      reply,
    );
  if (typeof code === 'string' && NETWORK_CODES.has(code))
    return new DeliveryFailure(
      'email',
      'transient',
      `The mail server could not be reached (${code}).`,
    );
  if (code === 'EAUTH')
    return new DeliveryFailure('email', 'rejected', 'The mail server refused our credentials.');
  if (code === 'EENVELOPE' || code === 'EMESSAGE')
    return new DeliveryFailure('email', 'rejected', `The message could not be sent (${code}).`);
  return new DeliveryFailure('email', 'transient', 'Sending the email failed.');
}
