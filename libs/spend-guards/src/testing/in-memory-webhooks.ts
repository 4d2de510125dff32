import { randomUUID } from 'node:crypto';
import { Transactional } from '@app/platform/testing';
import {
  PendingWebhookDelivery,
  RecordedAttempt,
  WebhookDeliveryRepository,
} from '../application/ports/webhook-delivery.repository.port';
import { WebhookDeliveryQueue } from '../application/ports/webhook-delivery.queue.port';
import { WebhookTransport, WebhookRequest } from '../application/ports/webhook-transport.port';
import {
  NewWebhook,
  WebhookRepository,
  WebhookTarget,
} from '../application/ports/webhook.repository.port';
import { Webhook } from '../domain/webhook';
import {
  pendingDelivery,
  WebhookAttemptResult,
  WebhookDelivery,
  WebhookPayload,
} from '../domain/webhook-delivery';

type StoredWebhook = Webhook & { secretCiphertext: string };

/** The endpoints as a map; a failed unit of work over fakes takes them back. */
export class InMemoryWebhookRepository extends WebhookRepository implements Transactional {
  readonly rows = new Map<string, StoredWebhook>();
  /** Told of a deleted endpoint, as the table's ON DELETE CASCADE tells the deliveries. */
  onDelete: (id: string) => void = () => undefined;

  snapshot(): () => void {
    const rows = [...this.rows];
    return () => {
      this.rows.clear();
      for (const [id, row] of rows) this.rows.set(id, row);
    };
  }

  async lockOwner(): Promise<void> {}

  async countByOwner(ownerKey: number): Promise<number> {
    return [...this.rows.values()].filter((row) => row.ownerKey === ownerKey).length;
  }

  async insert(webhook: NewWebhook): Promise<Webhook> {
    if (this.rows.has(webhook.id)) throw new Error(`duplicate webhook id ${webhook.id}`);
    this.rows.set(webhook.id, { ...webhook, events: [...webhook.events] });
    return strip(this.rows.get(webhook.id)!);
  }

  async findOwned(ownerKey: number, id: string): Promise<Webhook | null> {
    const row = this.rows.get(id);
    return row && row.ownerKey === ownerKey ? strip(row) : null;
  }

  async listByOwner(ownerKey: number): Promise<Webhook[]> {
    return [...this.rows.values()]
      .filter((row) => row.ownerKey === ownerKey)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(strip);
  }

  async deleteOwned(ownerKey: number, id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.ownerKey !== ownerKey) return false;
    this.rows.delete(id);
    this.onDelete(id);
    return true;
  }

  async replaceSecret(ownerKey: number, id: string, secretCiphertext: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.ownerKey !== ownerKey) return false;
    this.rows.set(id, { ...row, secretCiphertext });
    return true;
  }

  async findTarget(id: string): Promise<WebhookTarget | null> {
    const row = this.rows.get(id);
    return row ? { id: row.id, url: row.url, secretCiphertext: row.secretCiphertext } : null;
  }
}

function strip(row: StoredWebhook): Webhook {
  return {
    id: row.id,
    ownerKey: row.ownerKey,
    url: row.url,
    events: [...row.events],
    description: row.description,
    createdAt: row.createdAt,
  };
}

type StoredDelivery = WebhookDelivery & { body: string };

/** The deliveries as a map, over the endpoints of an InMemoryWebhookRepository. */
export class InMemoryWebhookDeliveryRepository
  extends WebhookDeliveryRepository
  implements Transactional
{
  readonly rows = new Map<string, StoredDelivery>();

  constructor(private readonly webhooks: InMemoryWebhookRepository) {
    super();
    webhooks.onDelete = (id) => {
      for (const [key, row] of this.rows) if (row.webhookId === id) this.rows.delete(key);
    };
  }

  snapshot(): () => void {
    const rows = [...this.rows];
    return () => {
      this.rows.clear();
      for (const [id, row] of rows) this.rows.set(id, row);
    };
  }

  async addForSubscribers(
    ownerKey: number,
    payload: WebhookPayload,
    createdAt: Date,
  ): Promise<string[]> {
    const subscribers = [...this.webhooks.rows.values()]
      .filter((row) => row.ownerKey === ownerKey && row.events.includes(payload.eventType))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const ids: string[] = [];
    for (const webhook of subscribers) ids.push(this.add(webhook.id, payload, createdAt));
    return ids;
  }

  async addPending(webhookId: string, payload: WebhookPayload, createdAt: Date): Promise<string> {
    if (!this.webhooks.rows.has(webhookId)) throw new Error(`no webhook ${webhookId}`);
    return this.add(webhookId, payload, createdAt);
  }

  async findPayload(webhookId: string, deliveryId: string): Promise<WebhookPayload | null> {
    const row = this.rows.get(deliveryId);
    return row && row.webhookId === webhookId ? payloadOf(row) : null;
  }

  async findPending(deliveryId: string): Promise<PendingWebhookDelivery | null> {
    const row = this.rows.get(deliveryId);
    if (!row || row.status !== 'pending') return null;
    return { id: row.id, webhookId: row.webhookId, payload: payloadOf(row) };
  }

  async recordAttempt(deliveryId: string, attempt: RecordedAttempt): Promise<boolean> {
    const row = this.rows.get(deliveryId);
    if (!row || row.status !== 'pending') return false;
    this.rows.set(deliveryId, {
      ...row,
      attempts: row.attempts + 1,
      status: attempt.status,
      lastStatusCode: attempt.result.statusCode,
      lastError: attempt.result.error?.slice(0, 200) ?? null,
      lastAttemptAt: attempt.at,
      deliveredAt: attempt.status === 'succeeded' ? attempt.at : null,
    });
    return true;
  }

  async listByWebhook(webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    return [...this.rows.values()]
      .filter((row) => row.webhookId === webhookId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map(({ body: _body, ...delivery }) => delivery);
  }

  async pendingSince(createdBefore: Date, limit: number): Promise<string[]> {
    return [...this.rows.values()]
      .filter((row) => row.status === 'pending' && row.createdAt < createdBefore)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((row) => row.id);
  }

  private add(webhookId: string, payload: WebhookPayload, createdAt: Date): string {
    const id = randomUUID();
    this.rows.set(id, {
      ...pendingDelivery(id, webhookId, payload, createdAt),
      body: payload.body,
    });
    return id;
  }
}

function payloadOf(row: StoredDelivery): WebhookPayload {
  return { eventId: row.eventId, eventType: row.eventType, body: row.body };
}

/** Records the deliveries queued; `failing` makes the next enqueue throw (Redis away). */
export class RecordingWebhookDeliveryQueue extends WebhookDeliveryQueue {
  readonly queued: string[] = [];
  failing = false;

  async enqueue(deliveryIds: string[]): Promise<void> {
    if (this.failing) throw new Error('the queue is unreachable');
    this.queued.push(...deliveryIds);
  }
}

/** Answers each post with the next scripted result (2xx by default) and records it. */
export class ScriptedWebhookTransport extends WebhookTransport {
  readonly requests: WebhookRequest[] = [];
  private readonly script: WebhookAttemptResult[] = [];

  answer(...results: WebhookAttemptResult[]): void {
    this.script.push(...results);
  }

  async post(request: WebhookRequest): Promise<WebhookAttemptResult> {
    this.requests.push(request);
    return this.script.shift() ?? { statusCode: 204, error: null };
  }
}
