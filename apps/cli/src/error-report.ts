import { ApiError } from './errors';
import { formatRemaining, formatTimestamp } from './output/format';
import { terminalText } from './output/terminal-text';

/**
 * `Error <status> <error>: <msg>` plus hints for the cases a user can act on. With --raw
 * the error body itself, as one JSON line, so scripts can parse it.
 */
export function renderApiError(error: ApiError, raw: boolean, now: Date): string {
  if (raw) {
    const body =
      error.body !== null && typeof error.body === 'object'
        ? error.body
        : { success: false, status: error.status, msg: error.text };
    return `${JSON.stringify(body)}\n`;
  }
  // The api's words, or a proxy's page: shown through the client's one sanitiser.
  const code = error.code ? ` ${terminalText(error.code)}` : '';
  const lines = [`Error ${error.status}${code}: ${terminalText(error.text)}`];
  const failCount = error.field('fail_count');
  if (typeof failCount === 'number' && failCount > 0) lines.push(`Failed attempts: ${failCount}`);
  const lockedUntil = error.field('locked_until');
  if (typeof lockedUntil === 'number' && lockedUntil > 0) {
    lines.push(
      `Method locked until ${formatTimestamp(lockedUntil)} UTC (${formatRemaining(lockedUntil, now)} left).`,
    );
  }
  if (error.code === '2fa_expired') {
    lines.push(
      'The code expired: request a new one with "gpumkt tfa send-sms" or "gpumkt tfa send-email".',
    );
  }
  if (error.status === 401 && error.text.includes('Two Factor Authentication')) {
    lines.push('Hint: open a session with "gpumkt tfa login".');
  }
  if (error.hint) {
    lines.push(`Hint: ${error.hint}`);
  } else if (error.code === 'invalid_token') {
    lines.push(
      'Hint: a next page token only continues the listing it came from: repeat its -s and -e ' +
        '(as printed beside the token), -ct, -f and --latest-first.',
    );
  }
  if (error.body === null) {
    lines.push(
      'Hint: this answer is not JSON, so it did not come from the api: check --url ' +
        '(or $GPUMKT_URL) and any proxy in front of the api.',
    );
  }
  if (error.code === 'auth_error' && error.status === 403) {
    lines.push('Hint: save your key with "gpumkt set api-key KEY", or pass --api-key.');
  }
  return `${lines.join('\n')}\n`;
}
