export {
  AccountSecurityWithTfaModule,
  AccountSecurityWorkerWithTfaModule,
  AccountsWithTfaModule,
  IdentityTfaModule,
  TfaDeliveryWorkerModule,
} from './identity-tfa.module';
