import { Webhook, WebhookEventType } from '../../domain/webhook';

export interface NewWebhook {
  id: string;
  ownerKey: number;
  url: string;
  events: WebhookEventType[];
  description: string;
  /** The signing secret's ciphertext (SecretKeeper, bound to the id). */
  secretCiphertext: string;
  createdAt: Date;
}

/** An endpoint as the delivery reads it: where to post, and its secret's ciphertext. */
export interface WebhookTarget {
  id: string;
  url: string;
  secretCiphertext: string;
}

/** The owners' webhook endpoints; every method joins the caller's unit of work. */
export abstract class WebhookRepository {
  /**
   * Holds the owner's lock until the unit of work ends: two creates of one owner count its
   * endpoints one after the other, so the limit holds.
   */
  abstract lockOwner(ownerKey: number): Promise<void>;

  abstract countByOwner(ownerKey: number): Promise<number>;

  abstract insert(webhook: NewWebhook): Promise<Webhook>;

  /** The endpoint when `ownerKey` owns it; null when it does not exist or is another's. */
  abstract findOwned(ownerKey: number, id: string): Promise<Webhook | null>;

  /** The owner's endpoints, oldest first. */
  abstract listByOwner(ownerKey: number): Promise<Webhook[]>;

  /** Deletes the endpoint and its delivery log; false when it was not the owner's. */
  abstract deleteOwned(ownerKey: number, id: string): Promise<boolean>;

  /** Replaces the secret's ciphertext; false when it was not the owner's. */
  abstract replaceSecret(ownerKey: number, id: string, secretCiphertext: string): Promise<boolean>;

  /** What a delivery needs of the endpoint, whoever owns it; null when it was deleted. */
  abstract findTarget(id: string): Promise<WebhookTarget | null>;
}
