import { EventEmitter } from 'node:events';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { CONDITION_TIMEOUT_MS } from './wait';

/** A message as the sink received it, with the few headers and parts tests read. */
export interface SunkMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  messageId: string;
  /** The W3C trace context header, when the sender traced the message ('' otherwise). */
  traceparent: string;
  /** Decoded text/plain and text/html parts. */
  text: string;
  html: string;
  /** The authenticated user, when the client logged in. */
  user: string | null;
}

export interface SmtpSink {
  host: string;
  port: number;
  messages: SunkMail[];
  /**
   * Answers the next DATA commands with these SMTP reply codes (4xx defer, 5xx refuse);
   * LOST_REPLY keeps the message and drops the connection instead of answering, so the
   * client cannot tell that it went through.
   */
  program(...replyCodes: number[]): void;
  waitForMail(
    predicate: (mail: SunkMail) => boolean,
    count: number,
    timeoutMs?: number,
  ): Promise<SunkMail[]>;
  reset(): void;
  close(): Promise<void>;
}

export const LOST_REPLY = 0;

/** Undoes quoted-printable (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(body: string): string {
  return Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

function headerOf(block: string, name: string): string {
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded);
  return match ? match[1].trim() : '';
}

function decodePart(headers: string, body: string): string {
  const encoding = headerOf(headers, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** Just enough MIME: one level of multipart, or a single part. */
function parseMail(
  raw: string,
): Pick<SunkMail, 'subject' | 'messageId' | 'traceparent' | 'text' | 'html'> {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const contentType = headerOf(headers, 'Content-Type');
  const parts: Array<{ type: string; content: string }> = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const at = chunk.search(/\r?\n\r?\n/);
      const partHeaders = chunk.slice(0, at);
      const content = chunk
        .slice(at)
        .replace(/^\r?\n\r?\n/, '')
        .replace(/\r?\n$/, '');
      parts.push({
        type: headerOf(partHeaders, 'Content-Type'),
        content: decodePart(partHeaders, content),
      });
    }
  } else {
    parts.push({ type: contentType, content: decodePart(headers, body) });
  }
  return {
    subject: headerOf(headers, 'Subject'),
    messageId: headerOf(headers, 'Message-ID'),
    traceparent: headerOf(headers, 'traceparent'),
    text: parts.find((part) => part.type.startsWith('text/plain'))?.content ?? '',
    html: parts.find((part) => part.type.startsWith('text/html'))?.content ?? '',
  };
}

/**
 * An SMTP server on loopback (smtp-server) that keeps every message it accepts. Plain
 * SMTP, AUTH optional (any credentials are accepted and recorded); programmed reply
 * codes make it defer or refuse.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const messages: SunkMail[] = [];
  const replies: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const reply = replies.shift();
        if (reply !== undefined && reply !== LOST_REPLY) {
          const error = Object.assign(new Error(`programmed ${reply}`), { responseCode: reply });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          user: typeof session.user === 'string' ? session.user : null,
          ...parseMail(raw),
        });
        events.emit('mail');
        if (reply === LOST_REPLY) return dropConnection(session.id);
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  const dropConnection = (sessionId: string) => {
    const open = (
      server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }
    ).connections;
    for (const connection of open) if (connection.id === sessionId) connection._socket.destroy();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    messages,
    program: (...codes) => replies.push(...codes),
    waitForMail: (predicate, count, timeoutMs = CONDITION_TIMEOUT_MS) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const matching = messages.filter(predicate);
          if (matching.length < count) return false;
          clearTimeout(timer);
          events.off('mail', check);
          resolve(matching);
          return true;
        };
        const timer = setTimeout(() => {
          events.off('mail', check);
          reject(new Error(`expected ${count} emails, got ${messages.filter(predicate).length}`));
        }, timeoutMs);
        if (!check()) events.on('mail', check);
      }),
    reset: () => {
      messages.length = 0;
      replies.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code in an email's text part. */
export function mailCode(mail: SunkMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error('no code in the email');
  return match[1];
}
