import { OPERATOR_ORIGIN } from '@app/platform';
import { SecurityEvent, SecurityEventMethod } from '../../domain/security-event';
import { EmailContent } from './code-message-text';

/**
 * The wording of security notices (docs/identity-tfa.md "Notifications"): what happened,
 * when (UTC) and from where, and what to do if it was not the user. Built from the event
 * alone, which holds no code, secret, token or phone number, so no notice can carry one.
 */

const METHOD_NAMES: Record<SecurityEventMethod, string> = {
  sms: 'SMS codes',
  totp: 'an authenticator app',
  email: 'email codes',
  backup_code: 'backup codes',
};

function methodName(method: SecurityEventMethod | null): string {
  return method ? METHOD_NAMES[method] : 'a two-factor method';
}

function count(value: unknown, one: string, many: string): string {
  const n = typeof value === 'number' ? value : 0;
  return `${n} ${n === 1 ? one : many}`;
}

/** The headline (subject) and the sentence saying what happened, per kind. */
function whatHappened(event: SecurityEvent): { title: string; sentence: string } {
  const { details } = event;
  switch (event.kind) {
    case 'tfa_enabled':
      return {
        title: 'two-factor authentication turned on',
        sentence: 'Two-factor authentication was turned on for your account.',
      };
    case 'tfa_disabled':
      return {
        title: 'two-factor authentication turned off',
        sentence:
          `Two-factor authentication was turned off for your account (its last method, ${methodName(event.method)}, was removed): ` +
          'your password alone now signs in.',
      };
    case 'method_added':
      return {
        title: 'a two-factor method was added',
        sentence: `A two-factor method was added to your account: ${methodName(event.method)}.`,
      };
    case 'method_removed':
      return {
        title: 'a two-factor method was removed',
        sentence: `A two-factor method was removed from your account: ${methodName(event.method)}.`,
      };
    case 'method_updated':
      return {
        title: 'a two-factor method was changed',
        sentence: `A two-factor method of your account (${methodName(event.method)}) was changed.`,
      };
    case 'backup_codes_regenerated':
      return {
        title: 'new backup codes',
        sentence:
          'A new set of backup codes was made for your account; the previous codes no longer work.',
      };
    case 'backup_code_used':
      return {
        title: 'a backup code was used',
        sentence:
          'One of your backup codes was used to confirm a sign-in or a change to your account ' +
          `(${count(details.remaining, 'code is', 'codes are')} left).`,
      };
    case 'method_locked':
      return {
        title: 'two-factor verification locked',
        sentence:
          `After too many wrong codes, verification by ${methodName(event.method)} was locked on your ` +
          'account for 15 minutes. Someone may be trying to guess your codes.',
      };
    case 'login':
      return {
        title: 'a sign-in with two-factor authentication',
        sentence: 'Your account was signed in to with two-factor authentication.',
      };
    case 'session_revoked':
      return {
        title: 'sessions ended',
        sentence: `${count(details.sessions, 'session', 'sessions')} of your account ended.`,
      };
    case 'admin_reset':
      return {
        title: 'two-factor authentication reset by an administrator',
        sentence:
          'An administrator reset two-factor authentication on your account: its methods and ' +
          'backup codes were removed, every session was ended and every trusted device forgotten. ' +
          'Your password alone now signs in until you set two-factor authentication up again.',
      };
    case 'device_trusted':
      return {
        title: 'a device will skip two-factor authentication',
        sentence:
          'A browser was remembered as a trusted device: for ' +
          `${count(details.days, 'day', 'days')}, your password alone signs in from it.`,
      };
    case 'device_revoked':
      return {
        title: 'trusted devices removed',
        sentence: `${count(details.devices, 'trusted device was', 'trusted devices were')} removed from your account.`,
      };
  }
}

/** `2026-01-01 12:00:05 UTC`. */
function utc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * The user agent as a mail may show it: anyone can send any User-Agent, so it is quoted,
 * reduced to printable ASCII on one line and shortened, never read as the mail's own words.
 */
function shownUserAgent(userAgent: string): string {
  const printable = userAgent
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\s+/g, ' ')
    .trim();
  return printable.length > 120 ? `${printable.slice(0, 117)}...` : printable;
}

function where(event: SecurityEvent): string {
  const { address, userAgent } = event.origin;
  if (address === OPERATOR_ORIGIN.address && userAgent === OPERATOR_ORIGIN.userAgent)
    return 'an operator of the service';
  const parts = [`address ${address ?? 'unknown'}`];
  if (userAgent) parts.push(`browser or client "${shownUserAgent(userAgent)}"`);
  return parts.join(', ');
}

const IF_NOT_YOU =
  'If this was you, there is nothing to do. If it was not, change your password now, review ' +
  'your two-factor methods and trusted devices, and contact support.';

const WHY =
  'Every change to the protection of your account is notified; these notices cannot be turned off.';

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

export function noticeContent(brand: string, event: SecurityEvent): EmailContent {
  const { title, sentence } = whatHappened(event);
  const lines = [
    sentence,
    '',
    `When: ${utc(event.occurredAt)}`,
    `From: ${where(event)}`,
    '',
    IF_NOT_YOU,
    '',
    WHY,
  ];
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:sans-serif">',
    `<p>${escapeHtml(sentence)}</p>`,
    `<p>When: ${escapeHtml(utc(event.occurredAt))}<br>From: ${escapeHtml(where(event))}</p>`,
    `<p>${escapeHtml(IF_NOT_YOU)}</p>`,
    `<p style="color:#666">${escapeHtml(WHY)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `${brand} security notice: ${title}`, text: lines.join('\n'), html };
}
