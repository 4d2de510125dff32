import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuditLogModule } from '@app/audit-log';
import { AutoscalingModule } from '@app/autoscaling';
import { BillingModule } from '@app/billing';
import {
  AccountSecurityWithTfaModule,
  AccountSecurityWorkerWithTfaModule,
  AccountsWithTfaModule,
  IdentityTfaModule,
  TfaDeliveryWorkerModule,
} from '@app/identity-tfa';
import { MarketplaceVolumesModule } from '@app/marketplace-volumes';
import {
  AccessGuard,
  AuthGuard,
  Environment,
  loadPlatformConfig,
  PlatformModule,
  RandomSource,
  RateLimitGuard,
  WriteConcurrencyGuard,
} from '@app/platform';
import { BudgetsWorkerModule, SpendGuardsModule, WebhooksWorkerModule } from '@app/spend-guards';
import { DrainOnShutdown } from './drain-on-shutdown';

export interface ApiModuleOptions {
  env?: Environment;
  /** See PlatformOptions.randomSource: tests only. */
  randomSource?: RandomSource;
}

/** The HTTP server: every context, global auth then rate limiting, and (optionally) the worker. */
@Module({})
export class ApiModule {
  static register(options: ApiModuleOptions = {}): DynamicModule {
    const env = options.env ?? new Environment();
    const runWorker = loadPlatformConfig(env).runWorker;
    return {
      module: ApiModule,
      imports: [
        PlatformModule.forRoot({
          env,
          http: true,
          metrics: 'api',
          randomSource: options.randomSource,
        }),
        // Accounts with identity-tfa's login challenge as the password login's second step
        // and account security's trusted devices and records.
        AccountsWithTfaModule,
        BillingModule,
        IdentityTfaModule,
        AccountSecurityWithTfaModule,
        MarketplaceVolumesModule,
        AutoscalingModule,
        AuditLogModule,
        SpendGuardsModule,
        ...(runWorker
          ? [
              TfaDeliveryWorkerModule,
              AccountSecurityWorkerWithTfaModule,
              BudgetsWorkerModule.withAccounts(AccountsWithTfaModule),
              WebhooksWorkerModule,
            ]
          : []),
      ],
      providers: [
        // Order matters: permissions and the rate limit read the principal that
        // authentication resolves, and a refused request spends no rate-limit slot.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: WriteConcurrencyGuard },
        DrainOnShutdown,
      ],
    };
  }
}
