import { WebhookAttemptResult } from '../../domain/webhook-delivery';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Posts one attempt to a receiver within the settings' timeout. Never throws for what the
 * receiver or the network did: a status, or a short error (timed out, refused, a refused
 * address) that holds no secret, no header and no part of the URL.
 */
export abstract class WebhookTransport {
  abstract post(request: WebhookRequest): Promise<WebhookAttemptResult>;
}
