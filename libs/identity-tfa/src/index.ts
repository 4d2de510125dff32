export {
  AccountsWithTfaModule,
  IdentityTfaModule,
  TfaDeliveryWorkerModule,
} from './identity-tfa.module';
export {
  OutboxReader,
  OutboxMessage,
  OutboxKind,
} from './infrastructure/delivery/outbox-code.sender';
