import { DynamicModule, Module } from '@nestjs/common';
import {
  AccountSecurityWorkerWithTfaModule,
  AccountsWithTfaModule,
  TfaDeliveryWorkerModule,
} from '@app/identity-tfa';
import { Environment, PlatformModule } from '@app/platform';
import { BudgetsWorkerModule, WebhooksWorkerModule } from '@app/spend-guards';

/** BullMQ processors only; scales independently of the api. */
@Module({})
export class WorkerModule {
  static register(env: Environment = new Environment()): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        PlatformModule.forRoot({ env, http: false, metrics: 'worker' }),
        // The accounts module the delivery modules import too (one instance in the app).
        AccountsWithTfaModule,
        TfaDeliveryWorkerModule,
        AccountSecurityWorkerWithTfaModule,
        BudgetsWorkerModule.withAccounts(AccountsWithTfaModule),
        WebhooksWorkerModule,
      ],
    };
  }
}
