import { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { Injectable } from '@nestjs/common';
import { tracedProviderCall } from '@app/platform';
import { WebhookRequest, WebhookTransport } from '../../application/ports/webhook-transport.port';
import { isPublicAddress } from '../../domain/webhook';
import { WebhookAttemptResult } from '../../domain/webhook-delivery';
import { WebhookSettings } from '../../domain/webhook-settings';

/** Raised by the production lookup for a name that resolves to a non-public address. */
const NON_PUBLIC = 'WEBHOOK_NON_PUBLIC_ADDRESS';

/**
 * Resolves as the default lookup does, then refuses when any address is not a public one,
 * so a name cannot point the worker into its own network (checked at connect time: a
 * name that changed its answer since the endpoint was created is caught too).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as unknown as { address: string; family: number }[];
    if (list.length === 0 || list.some((entry) => !isPublicAddress(entry.address))) {
      const refused = Object.assign(new Error('non-public address'), { code: NON_PUBLIC });
      return callback(refused, '', 0);
    }
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/** A short error for the delivery log: the failure's kind only, never the URL or a header. */
function describeFailure(code: string | undefined, timeoutMs: number): string {
  switch (code) {
    case 'WEBHOOK_TIMEOUT':
      return `timed out after ${timeoutMs} ms`;
    case NON_PUBLIC:
      return 'refused: the host resolves to a non-public address';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return code && /^[A-Z0-9_]{1,40}$/.test(code) ? `request failed (${code})` : 'request failed';
  }
}

/**
 * One POST with node's http client: the whole attempt (connect, TLS, headers) bounded by
 * WEBHOOK_TIMEOUT_MS, redirects not followed (a 3xx is a failed attempt), the answer's body
 * not read. In production the host's addresses must be public (publicOnlyLookup).
 */
@Injectable()
export class HttpWebhookTransport extends WebhookTransport {
  constructor(private readonly settings: WebhookSettings) {
    super();
  }

  post(request: WebhookRequest): Promise<WebhookAttemptResult> {
    return tracedProviderCall(
      'webhook.post',
      { 'webhook.timeout_ms': this.settings.timeoutMs },
      () => this.attempt(request),
    );
  }

  private attempt(request: WebhookRequest): Promise<WebhookAttemptResult> {
    const timeoutMs = this.settings.timeoutMs;
    const url = new URL(request.url);
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (this.settings.production && /^[\d.]+$|:/.test(hostname) && !isPublicAddress(hostname))
      return Promise.resolve({ statusCode: null, error: describeFailure(NON_PUBLIC, timeoutMs) });
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: WebhookAttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(url, {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
        agent: false,
        ...(this.settings.production ? { lookup: publicOnlyLookup } : {}),
      });
      const timer = setTimeout(() => {
        req.destroy(Object.assign(new Error('timed out'), { code: 'WEBHOOK_TIMEOUT' }));
      }, timeoutMs);
      req.on('response', (res) => {
        finish({ statusCode: res.statusCode ?? null, error: null });
        // The status is the answer: its body is not read, so a receiver that streams one
        // without end holds nothing of the worker.
        res.on('error', () => undefined);
        res.destroy();
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, error: describeFailure(error.code, timeoutMs) });
      });
      req.end(request.body);
    });
  }
}
