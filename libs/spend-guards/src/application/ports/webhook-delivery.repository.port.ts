import {
  WebhookAttemptResult,
  WebhookDelivery,
  WebhookPayload,
} from '../../domain/webhook-delivery';

/** A pending delivery as its attempt reads it: the payload to post and the endpoint. */
export interface PendingWebhookDelivery {
  id: string;
  webhookId: string;
  payload: WebhookPayload;
}

/** The attempt's outcome as the row records it. */
export interface RecordedAttempt {
  result: WebhookAttemptResult;
  at: Date;
  /** pending: retried later; succeeded; failed: out of attempts. */
  status: 'pending' | 'succeeded' | 'failed';
}

/**
 * The deliveries of webhook events and their log; every method joins the caller's unit of
 * work. Ids are made by the store (uuid).
 */
export abstract class WebhookDeliveryRepository {
  /**
   * One pending delivery of `payload` per endpoint of `ownerKey` subscribed to its type,
   * in one statement; answers their ids.
   */
  abstract addForSubscribers(
    ownerKey: number,
    payload: WebhookPayload,
    createdAt: Date,
  ): Promise<string[]>;

  /** One pending delivery of `payload` to the endpoint; answers its id. */
  abstract addPending(webhookId: string, payload: WebhookPayload, createdAt: Date): Promise<string>;

  /** The delivery of the endpoint with its payload; null when there is none. */
  abstract findPayload(webhookId: string, deliveryId: string): Promise<WebhookPayload | null>;

  /** The delivery still pending; null when it succeeded, failed, or is gone. */
  abstract findPending(deliveryId: string): Promise<PendingWebhookDelivery | null>;

  /** Counts the attempt and records its outcome, if the delivery is still pending. */
  abstract recordAttempt(deliveryId: string, attempt: RecordedAttempt): Promise<boolean>;

  /** The endpoint's deliveries, newest first, at most `limit`. */
  abstract listByWebhook(webhookId: string, limit: number): Promise<WebhookDelivery[]>;

  /** Ids of deliveries pending since before `createdBefore`, oldest first. */
  abstract pendingSince(createdBefore: Date, limit: number): Promise<string[]>;
}
