import { Injectable } from '@nestjs/common';
import { Webhook } from '../../domain/webhook';
import { OwnedWebhooks } from './owned-webhooks.service';

/** One endpoint of the owner (never its secret). */
@Injectable()
export class ShowWebhookUseCase {
  constructor(private readonly owned: OwnedWebhooks) {}

  execute(ownerKey: number, id: string): Promise<Webhook> {
    return this.owned.find(ownerKey, id);
  }
}
