import { tracedProviderCall } from '@app/platform';
import { DeliveryFailure } from '../../domain/delivery-failure';
import { OutgoingMessage } from '../../domain/message';
import { ProviderSender, SentMessage } from './provider-sender';
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
}

interface TwilioListedMessage {
  sid?: unknown;
  body?: unknown;
  date_created?: unknown;
}

/** Seconds of clock difference tolerated between Twilio's date_created and ours. */
const CLOCK_SKEW_MS = 60_000;

/** SMS through the Twilio Messages REST API (form-encoded, HTTP basic auth). */
export class TwilioSmsSender extends ProviderSender {
  readonly name = 'twilio';

  constructor(
    private readonly settings: TwilioSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    super();
  }

  async send(message: OutgoingMessage): Promise<SentMessage> {
    const form = new URLSearchParams({ To: message.destination });
    if (this.settings.messagingServiceSid)
      form.set('MessagingServiceSid', this.settings.messagingServiceSid);
    else form.set('From', this.settings.from ?? '');
    form.set('Body', message.content.text);
    return this.traced('twilio send sms', async (traceHeaders) =>
      readTwilioAnswer(await this.request('POST', this.messagesUrl(), traceHeaders, form)),
    );
  }

  /**
   * Twilio takes no idempotency key on Messages, so an attempt whose outcome is unknown is
   * settled by listing the recent messages to that number and looking for this text (the
   * same on every attempt of a send).
   */
  async findSent(message: OutgoingMessage, since: Date): Promise<SentMessage | null> {
    const url = new URL(this.messagesUrl());
    url.searchParams.set('To', message.destination);
    if (this.settings.from) url.searchParams.set('From', this.settings.from);
    url.searchParams.set('PageSize', '50');
    const answer = await this.traced('twilio list messages', (traceHeaders) =>
      this.request('GET', url.toString(), traceHeaders),
    );
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
        entry.body.includes(message.content.text) &&
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

  /**
   * A call in a client span of the trace (with tracing on), whose W3C context Twilio
   * receives as `traceparent`; never the number or the text.
   */
  private traced<T>(name: string, call: (traceHeaders: Record<string, string>) => Promise<T>) {
    return tracedProviderCall(
      name,
      { 'server.address': new URL(this.settings.baseUrl).host },
      call,
    );
  }

  private async request(
    method: 'GET' | 'POST',
    url: string,
    traceHeaders: Record<string, string>,
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
          ...traceHeaders,
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
