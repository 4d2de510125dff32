import { TransactionalEntityManager } from '@app/platform';
import { CodeDeliveryProvider } from '../../application/ports/code-delivery.provider.port';
import { TfaSettings } from '../../application/tfa-settings';
import { OutboxCodeDeliveryProvider } from './outbox-code-delivery.provider';

/** One adapter per provider; CODE_DELIVERY_PROVIDER picks it (SMS and email gateways come later). */
export function createCodeDeliveryProvider(
  settings: TfaSettings,
  tx: TransactionalEntityManager,
): CodeDeliveryProvider {
  switch (settings.deliveryProvider) {
    case 'outbox':
      return new OutboxCodeDeliveryProvider(tx);
  }
}
