import { OPERATOR_ORIGIN } from '@app/platform';
import { SecurityEvent, SecurityEventMethod } from './security-event';

/** A notice as its email says it: what messaging's MessageContent carries. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

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
          `(${details.remaining === 0 ? 'no backup codes are' : count(details.remaining, 'code is', 'codes are')} left).`,
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
        sentence: resetSentence(event),
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
    case 'api_key_created':
      return {
        title: 'an API key was created',
        sentence: `An API key was created for your account: ${keyNamed(details)}.`,
      };
    case 'api_key_deleted':
      return {
        title: 'an API key was deleted',
        sentence: `An API key of your account was deleted and no longer works: ${keyNamed(details)}.`,
      };
    case 'team_changed':
      return { title: 'your team membership changed', sentence: teamSentence(details) };
    case 'api_key_reset':
      return {
        title: 'your main API key was replaced',
        sentence:
          'The main API key of your account was reset: the previous one no longer works, ' +
          `and the new one is ${keyNamed(details)}.`,
      };
  }
}

/**
 * What an admin reset changed, and only that: a count of 0 is left out, and "your password
 * alone now signs in" is said only when two-factor authentication was on. (A reset that
 * changed nothing is not mailed at all.)
 */
function resetSentence({ details }: SecurityEvent): string {
  const changes = [
    details.tfa_turned_off === true ? 'two-factor authentication was turned off' : null,
    positive(details.methods_removed)
      ? `${count(details.methods_removed, 'two-factor method was', 'two-factor methods were')} removed`
      : null,
    positive(details.backup_codes_revoked)
      ? `${count(details.backup_codes_revoked, 'unused backup code was', 'unused backup codes were')} revoked`
      : null,
    positive(details.sessions_revoked)
      ? `${count(details.sessions_revoked, 'session was', 'sessions were')} ended`
      : null,
    positive(details.devices_revoked)
      ? `${count(details.devices_revoked, 'trusted device was', 'trusted devices were')} forgotten`
      : null,
  ].filter((change): change is string => change !== null);
  const what = changes.length > 0 ? `: ${joinList(changes)}.` : '.';
  const after =
    details.tfa_turned_off === true
      ? ' Your password alone now signs in until you set two-factor authentication up again.'
      : '';
  return `An administrator reset two-factor authentication on your account${what}${after}`;
}

const positive = (value: unknown): boolean => typeof value === 'number' && value > 0;

/** `a`, `a and b`, `a, b and c`. */
function joinList(items: string[]): string {
  return items.length <= 1
    ? items.join('')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * A key as a notice names it: its name (anyone with a key can choose one, so it is quoted
 * and made plain text, like a user agent) and its prefix; never the key.
 */
function keyNamed(details: SecurityEvent['details']): string {
  const prefix = typeof details.prefix === 'string' ? printableLine(details.prefix) : '';
  const name = typeof details.name === 'string' && details.name.trim() ? details.name : null;
  return `${name ? `${quoted(name)}, ` : ''}the key beginning ${prefix}`;
}

/** A team change as the member affected reads it: the team, the change, the roles. */
function teamSentence(details: SecurityEvent['details']): string {
  const team = typeof details.team_name === 'string' ? quoted(details.team_name) : 'a team';
  const role = (value: unknown) => (typeof value === 'string' ? quoted(value) : 'a role');
  switch (details.change) {
    case 'team_created':
      return `You created the team ${team}; you are its owner.`;
    case 'team_member_joined':
      return `You joined the team ${team} as ${role(details.role)}.`;
    case 'team_member_removed':
      return `You were removed from the team ${team}: your keys of the team no longer work.`;
    case 'team_member_role_changed':
      return `Your role in the team ${team} changed from ${role(details.from)} to ${role(details.to)}.`;
    case 'team_policy_changed':
      return `The security policy of the team ${team} changed.`;
    default:
      return `Your membership of the team ${team} changed.`;
  }
}

/** `2026-01-01 12:00:05 UTC`. */
function utc(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Text the sender chose (a user agent, a key's name) as a mail may show it: anyone can send
 * any, so it is reduced to one line of printable characters (letters of any script stay:
 * `é` is `é`; controls, format and bidi characters become `?`) and shortened.
 */
function printableLine(text: string): string {
  const printable = text
    .replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/gu, '?')
    .replace(/\p{Zs}+/gu, ' ')
    .trim();
  const chars = [...printable];
  return chars.length > 120 ? `${chars.slice(0, 117).join('')}...` : printable;
}

/**
 * printableLine written as a quoted string with its own quotes and backslashes escaped
 * (`"Evil\" Support: ..."`), so it can never close its quotes and read as the mail's own
 * words.
 */
function quoted(text: string): string {
  return `"${printableLine(text).replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

function where(event: SecurityEvent): string {
  const { address, userAgent } = event.origin;
  if (address === OPERATOR_ORIGIN.address && userAgent === OPERATOR_ORIGIN.userAgent)
    return 'an operator of the service';
  const parts = [`address ${address ?? 'unknown'}`];
  if (userAgent) parts.push(`browser or client ${quoted(userAgent)}`);
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
