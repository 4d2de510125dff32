import { Injectable } from '@nestjs/common';
import { RandomSource, SecretKeeper, UnitOfWork } from '@app/platform';
import { SpendGuardsError } from '../../domain/errors';
import { webhookSecret, webhookSecretAad } from '../../domain/webhook';
import { WebhookRepository } from '../ports/webhook.repository.port';
import { WebhookWithSecret } from './create-webhook.use-case';
import { OwnedWebhooks, WEBHOOK_NOT_FOUND } from './owned-webhooks.service';

/**
 * Replaces an endpoint's signing secret with a fresh one, shown once in the answer. Every
 * attempt from then on, retries of older deliveries included, is signed with the new one.
 */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly owned: OwnedWebhooks,
    private readonly webhooks: WebhookRepository,
    private readonly secrets: SecretKeeper,
    private readonly random: RandomSource,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(ownerKey: number, id: string): Promise<WebhookWithSecret> {
    const secret = webhookSecret(this.random.bytes(32));
    return this.uow.run(async () => {
      const webhook = await this.owned.find(ownerKey, id);
      const ciphertext = this.secrets.encrypt(secret, webhookSecretAad(webhook.id));
      if (!(await this.webhooks.replaceSecret(ownerKey, webhook.id, ciphertext)))
        throw new SpendGuardsError('webhook_not_found', WEBHOOK_NOT_FOUND);
      return { webhook, secret };
    });
  }
}
