/**
 * The wording of code messages, one for every provider so that SMS and email say the same;
 * the delivery job words the message when it runs, and messaging carries it.
 */

/** What a code message says: the code and when it stops working. */
export interface CodeText {
  code: string;
  expiresAt: Date;
}

function minutesLeft(expiresAt: Date, nowMs: number): number {
  return Math.max(1, Math.ceil((expiresAt.getTime() - nowMs) / 60_000));
}

/** HH:MM UTC: an absolute expiry stays true however late a retried message arrives. */
function utcTime(date: Date): string {
  return `${date.toISOString().slice(11, 16)} UTC`;
}

export function smsBody(brand: string, message: CodeText): string {
  return `${message.code} is your ${brand} verification code. It expires at ${utcTime(message.expiresAt)}. Never share it.`;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

export function emailContent(brand: string, message: CodeText, nowMs: number): EmailContent {
  const minutes = minutesLeft(message.expiresAt, nowMs);
  const expiry = `${utcTime(message.expiresAt)} (in ${minutes} minute${minutes === 1 ? '' : 's'})`;
  const ignore =
    'If you did not ask for this code, ignore this message and consider changing your password.';
  const text = [
    `Your ${brand} verification code is: ${message.code}`,
    '',
    `It expires at ${expiry}.`,
    'Never share this code with anyone.',
    ignore,
  ].join('\n');
  const safeBrand = escapeHtml(brand);
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:sans-serif">',
    `<p>Your ${safeBrand} verification code is:</p>`,
    `<p style="font-size:24px;font-weight:bold;letter-spacing:4px">${escapeHtml(message.code)}</p>`,
    `<p>It expires at ${escapeHtml(expiry)}.</p>`,
    '<p>Never share this code with anyone.</p>',
    `<p style="color:#666">${escapeHtml(ignore)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `${brand} verification code`, text, html };
}
