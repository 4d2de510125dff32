import { smsBody } from './code-message-text';
import {
  CodeMessage,
  CodeSender,
  DeliveryFailure,
  DeliveryMessage,
  isNoticeMessage,
  SentMessage,
} from './code-sender';
import { readTwilioAnswer, twilioNetworkFailure } from './twilio-response';

export interface TwilioSettings {
  /** https://api.twilio.com, or a compatible endpoint (regional edge, test double). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Exactly one of a sender number and a messaging service. */
  from: string | null;
  messagingServiceSid: string | null;
  timeoutMs: number;
  brand: string;
}

interface TwilioListedMessage {
  sid?: unknown;
  body?: unknown;
  date_created?: unknown;
}

/** Seconds of clock difference tolerated between Twilio's date_created and ours. */
const CLOCK_SKEW_MS = 60_000;

/** Security notices go by email only: one reaching this adapter is refused for good. */
function smsOnly(message: DeliveryMessage): CodeMessage {
  if (isNoticeMessage(message))
    throw new DeliveryFailure('sms', 'rejected', 'Security notices are sent by email only.');
  return message;
}

/** SMS through the Twilio Messages REST API (form-encoded, HTTP basic auth). */
export class TwilioSmsSender extends CodeSender {
  readonly name = 'twilio';

  constructor(
    private readonly settings: TwilioSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    super();
  }

  async send(message: DeliveryMessage): Promise<SentMessage> {
    const code = smsOnly(message);
    const form = new URLSearchParams({ To: message.destination });
    if (this.settings.messagingServiceSid)
      form.set('MessagingServiceSid', this.settings.messagingServiceSid);
    else form.set('From', this.settings.from ?? '');
    form.set('Body', smsBody(this.settings.brand, code));
    const answer = await this.request('POST', this.messagesUrl(), form);
    return readTwilioAnswer(answer);
  }

  /**
   * Twilio takes no idempotency key on Messages, so an attempt whose outcome is unknown is
   * settled by listing the recent messages to that number and looking for this code.
   */
  async findSent(message: DeliveryMessage, since: Date): Promise<SentMessage | null> {
    const code = smsOnly(message);
    const url = new URL(this.messagesUrl());
    url.searchParams.set('To', message.destination);
    if (this.settings.from) url.searchParams.set('From', this.settings.from);
    url.searchParams.set('PageSize', '50');
    const answer = await this.request('GET', url.toString());
    if (answer.status !== 200)
      throw new DeliveryFailure(
        'sms',
        'transient',
        `Could not list messages at the SMS provider (HTTP ${answer.status}).`,
      );
    const listed = (answer.body as { messages?: TwilioListedMessage[] } | null)?.messages ?? [];
    const earliest = since.getTime() - CLOCK_SKEW_MS;
    for (const entry of listed) {
      const created = typeof entry.date_created === 'string' ? Date.parse(entry.date_created) : NaN;
      if (
        typeof entry.sid === 'string' &&
        typeof entry.body === 'string' &&
        entry.body.includes(code.code) &&
        !(created < earliest)
      )
        return { providerMessageId: entry.sid };
    }
    return null;
  }

  private messagesUrl(): string {
    const base = this.settings.baseUrl.replace(/\/+$/, '');
    return `${base}/2010-04-01/Accounts/${encodeURIComponent(this.settings.accountSid)}/Messages.json`;
  }

  private async request(
    method: 'GET' | 'POST',
    url: string,
    form?: URLSearchParams,
  ): Promise<{ status: number; body: unknown }> {
    const credentials = Buffer.from(
      `${this.settings.accountSid}:${this.settings.authToken}`,
    ).toString('base64');
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers: {
          Authorization: `Basic ${credentials}`,
          Accept: 'application/json',
          ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form?.toString(),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      throw twilioNetworkFailure(error);
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // A proxy's HTML error page, an empty body: the status decides.
    }
    return { status: response.status, body };
  }
}
