import { Injectable } from '@nestjs/common';
import { Clock, RandomSource, SecretKeeper, UnitOfWork } from '@app/platform';
import { SpendGuardsError } from '../../domain/errors';
import {
  Webhook,
  WEBHOOK_EVENT_TYPES,
  webhookDescriptionProblem,
  WebhookEventType,
  webhookEventsProblem,
  webhookId,
  WEBHOOKS_PER_OWNER,
  webhookSecret,
  webhookSecretAad,
  webhookUrlProblem,
} from '../../domain/webhook';
import { WebhookSettings } from '../../domain/webhook-settings';
import { WebhookRepository } from '../ports/webhook.repository.port';

export interface CreateWebhookCommand {
  ownerKey: number;
  url: string;
  /** Absent: every event type. */
  events?: string[];
  description?: string;
}

/** An endpoint with its signing secret: answered on creation and rotation only. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

/**
 * Registers an endpoint of the owner, with a fresh signing secret stored encrypted
 * (SecretKeeper, bound to the endpoint's id) and shown once, in the answer.
 */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly secrets: SecretKeeper,
    private readonly random: RandomSource,
    private readonly settings: WebhookSettings,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateWebhookCommand): Promise<WebhookWithSecret> {
    const urlProblem = webhookUrlProblem(command.url, this.settings.production);
    if (urlProblem) throw new SpendGuardsError('webhook_url_invalid', urlProblem);
    const events = command.events ?? [...WEBHOOK_EVENT_TYPES];
    const eventsProblem = webhookEventsProblem(events);
    if (eventsProblem) throw new SpendGuardsError('webhook_events_invalid', eventsProblem);
    const description = command.description ?? '';
    const descriptionProblem = webhookDescriptionProblem(description);
    if (descriptionProblem)
      throw new SpendGuardsError('webhook_description_invalid', descriptionProblem);
    const id = webhookId(this.random.token(128));
    const secret = webhookSecret(this.random.bytes(32));
    const webhook = await this.uow.run(async () => {
      await this.webhooks.lockOwner(command.ownerKey);
      if ((await this.webhooks.countByOwner(command.ownerKey)) >= WEBHOOKS_PER_OWNER)
        throw new SpendGuardsError(
          'webhook_limit_reached',
          `at most ${WEBHOOKS_PER_OWNER} webhooks per owner; delete one first`,
        );
      return this.webhooks.insert({
        id,
        ownerKey: command.ownerKey,
        url: command.url,
        events: events as WebhookEventType[],
        description,
        secretCiphertext: this.secrets.encrypt(secret, webhookSecretAad(id)),
        createdAt: this.clock.now(),
      });
    });
    return { webhook, secret };
  }
}
