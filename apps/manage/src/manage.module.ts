import { DynamicModule, Module } from '@nestjs/common';
import { AuditLogModule } from '@app/audit-log';
import { AutoscalingModule } from '@app/autoscaling';
import { BillingModule } from '@app/billing';
import {
  AccountSecurityWithTfaModule,
  AccountsWithTfaModule,
  IdentityTfaModule,
} from '@app/identity-tfa';
import { MarketplaceVolumesModule } from '@app/marketplace-volumes';
import { Environment, PlatformModule } from '@app/platform';
import { SpendGuardsModule } from '@app/spend-guards';

/** Every context, no HTTP: operator commands and fixtures run against the same code as the api. */
@Module({})
export class ManageModule {
  static register(env: Environment): DynamicModule {
    return {
      module: ManageModule,
      imports: [
        PlatformModule.forRoot({ env, http: false }),
        // Accounts with identity-tfa's login challenge as the password login's second step
        // and account security's trusted devices and records.
        AccountsWithTfaModule,
        BillingModule,
        IdentityTfaModule,
        AccountSecurityWithTfaModule,
        MarketplaceVolumesModule,
        AutoscalingModule,
        AuditLogModule,
        // Budgets are evaluated after a fixtures load writes charges (billing's ChargesWritten).
        SpendGuardsModule,
      ],
    };
  }
}
