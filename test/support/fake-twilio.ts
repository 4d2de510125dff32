import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { CONDITION_TIMEOUT_MS } from './wait';

/** A message the fake accepted, as Twilio would list it. */
export interface FakeSms {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  dateCreated: Date;
}

/** One HTTP request as it reached the fake, before any check: what went over the wire. */
export interface FakeTwilioCall {
  method: string;
  /** Path and query, as sent. */
  url: string;
  authorization: string | null;
  contentType: string | null;
  /** The W3C trace context the caller sent (with tracing on), else null. */
  traceparent: string | null;
  /** The raw request body (form-encoded for a Messages POST). */
  body: string;
  /** The HTTP status the fake answered (null when it dropped the connection or still holds it). */
  status: number | null;
}

/** A programmed answer for one POST, used instead of the normal processing. */
export type FakeTwilioFault =
  | { status: 500 | 502 | 503 }
  | { status: 429 }
  | { status: 400; code?: number }
  /** Accept (and record) the message, then drop the connection without an answer. */
  | { drop: true };

export interface FakeTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  /** Every POST received, accepted or not (form fields). */
  requests: Array<Record<string, string>>;
  /** Every message accepted (201). */
  messages: FakeSms[];
  /** Every HTTP request received (any method, path or credentials), in arrival order. */
  calls: FakeTwilioCall[];
  /** Answers for the next POSTs, in order; normal processing resumes when used up. */
  program(...faults: FakeTwilioFault[]): void;
  /** Numbers answered with 400 / 21211 (invalid To), as Twilio does for unassigned numbers. */
  rejectNumber(number: string): void;
  /** While held, accepted messages are recorded but their 201 answers wait for release(). */
  hold(): void;
  release(): void;
  /** Resolves once `count` accepted messages match (event-driven, bounded by timeoutMs). */
  waitForMessages(
    predicate: (sms: FakeSms) => boolean,
    count: number,
    timeoutMs?: number,
  ): Promise<FakeSms[]>;
  reset(): void;
  close(): Promise<void>;
}

function twilioError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      code,
      message,
      more_info: `https://www.twilio.com/docs/errors/${code}`,
      status,
    }),
  );
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/**
 * A Twilio-compatible Messages API on loopback: POST .../Messages.json (form-encoded,
 * HTTP basic auth) and GET .../Messages.json (list, newest first), with Twilio's answer
 * and error shapes. Faults are programmed per request.
 */
export async function startFakeTwilio(
  options: { accountSid?: string; authToken?: string } = {},
): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = options.authToken ?? randomBytes(16).toString('hex');
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const requests: Array<Record<string, string>> = [];
  const messages: FakeSms[] = [];
  const calls: FakeTwilioCall[] = [];
  const faults: FakeTwilioFault[] = [];
  const rejected = new Set<string>();
  let held: Array<() => void> | null = null;
  const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;

  const view = (sms: FakeSms) => ({
    sid: sms.sid,
    account_sid: accountSid,
    to: sms.to,
    from: sms.from,
    messaging_service_sid: sms.messagingServiceSid,
    body: sms.body,
    status: 'queued',
    direction: 'outbound-api',
    num_segments: '1',
    api_version: '2010-04-01',
    date_created: rfc2822(sms.dateCreated),
    date_sent: null,
    uri: `${path.replace('.json', '')}/${sms.sid}.json`,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const call: FakeTwilioCall = {
      method: req.method ?? '',
      url: req.url ?? '/',
      authorization: req.headers.authorization ?? null,
      contentType: req.headers['content-type'] ?? null,
      traceparent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : null,
      body: await readBody(req),
      status: null,
    };
    calls.push(call);
    res.once('finish', () => (call.status = res.statusCode));
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== path)
      return twilioError(res, 404, 20404, 'The requested resource was not found');
    if (req.headers.authorization !== expectedAuth)
      return twilioError(res, 401, 20003, 'Authenticate');
    if (req.method === 'GET') {
      const to = url.searchParams.get('To');
      const from = url.searchParams.get('From');
      const listed = messages
        .filter((sms) => (!to || sms.to === to) && (!from || sms.from === from))
        .reverse()
        .slice(0, Number(url.searchParams.get('PageSize') ?? 50));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ messages: listed.map(view), page: 0 }));
      return;
    }
    if (req.method !== 'POST') return twilioError(res, 405, 20004, 'Method not allowed');
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return twilioError(res, 400, 20001, 'Unsupported content type');
    const form = Object.fromEntries(new URLSearchParams(call.body));
    requests.push(form);
    const fault = faults.shift();
    if (fault && 'status' in fault) {
      if (fault.status === 429) return twilioError(res, 429, 20429, 'Too Many Requests');
      if (fault.status === 400)
        return twilioError(
          res,
          400,
          fault.code ?? 21211,
          "The 'To' number is not a valid phone number.",
        );
      return twilioError(res, fault.status, 20500, 'An internal server error has occurred');
    }
    if (!form.To) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
    if (!form.From && !form.MessagingServiceSid)
      return twilioError(
        res,
        400,
        21603,
        "A 'From' or 'MessagingServiceSid' parameter is required",
      );
    if (!form.Body) return twilioError(res, 400, 21602, 'Message body is required.');
    if (!/^\+[1-9]\d{6,14}$/.test(form.To) || rejected.has(form.To))
      return twilioError(
        res,
        400,
        21211,
        `The 'To' number ${form.To} is not a valid phone number.`,
      );
    const sms: FakeSms = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      to: form.To,
      from: form.From ?? null,
      messagingServiceSid: form.MessagingServiceSid ?? null,
      body: form.Body,
      dateCreated: new Date(),
    };
    messages.push(sms);
    events.emit('message');
    if (fault && 'drop' in fault) {
      req.socket.destroy();
      return;
    }
    const answer = () => {
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(view(sms)));
    };
    if (held) held.push(answer);
    else answer();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => twilioError(res, 500, 20500, 'fake failed'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    requests,
    messages,
    calls,
    program: (...next) => faults.push(...next),
    rejectNumber: (number) => rejected.add(number),
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const answer of waiting) answer();
    },
    waitForMessages: (predicate, count, timeoutMs = CONDITION_TIMEOUT_MS) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const matching = messages.filter(predicate);
          if (matching.length < count) return false;
          clearTimeout(timer);
          events.off('message', check);
          resolve(matching);
          return true;
        };
        const timer = setTimeout(() => {
          events.off('message', check);
          reject(new Error(`expected ${count} SMS, got ${messages.filter(predicate).length}`));
        }, timeoutMs);
        if (!check()) events.on('message', check);
      }),
    reset: () => {
      requests.length = 0;
      messages.length = 0;
      calls.length = 0;
      faults.length = 0;
      rejected.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The 6-digit code in an SMS body. */
export function smsCode(sms: FakeSms): string {
  const match = /\b(\d{6})\b/.exec(sms.body);
  if (!match) throw new Error('no code in the SMS body');
  return match[1];
}
