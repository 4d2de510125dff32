export {
  AccountsWithTfaModule,
  IdentityTfaModule,
  TfaDeliveryWorkerModule,
} from './identity-tfa.module';
export { OutboxReader, OutboxMessage } from './infrastructure/delivery/outbox-code.sender';
