import { MessageChannel, OutgoingMessage } from '../domain/message';

/**
 * A message as a sender hands it in, for the tests of the delivery path: its text names
 * `code` (six digits, as the fake providers' `smsCode` and `mailCode` find it), and an
 * email has a subject and an HTML part too.
 */
export function testMessage(
  channel: MessageChannel,
  fields: Partial<Omit<OutgoingMessage, 'channel' | 'content'>> & { code?: string } = {},
): OutgoingMessage {
  const { code = '314159', ...rest } = fields;
  const text = `${code} is your test code. It expires at 09:30 UTC.`;
  return {
    channel,
    destination: channel === 'sms' ? '+14155550123' : 'someone@example.test',
    content:
      channel === 'sms'
        ? { subject: null, text }
        : { subject: 'Test code', text, html: `<p>${text}</p>` },
    kind: 'code',
    idempotencyKey: `send-${code}-1`,
    requesterDecides: true,
    ...rest,
  };
}
