import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AutoscalingModule } from '@app/autoscaling';
import { BillingModule } from '@app/billing';
import {
  AccountsWithTfaModule,
  IdentityTfaModule,
  TfaDeliveryWorkerModule,
} from '@app/identity-tfa';
import { MarketplaceVolumesModule } from '@app/marketplace-volumes';
import {
  AuthGuard,
  Environment,
  loadPlatformConfig,
  PlatformModule,
  RandomSource,
  RateLimitGuard,
  WriteConcurrencyGuard,
} from '@app/platform';
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
        PlatformModule.forRoot({ env, http: true, randomSource: options.randomSource }),
        // Accounts with identity-tfa's login challenge as the password login's second step.
        AccountsWithTfaModule,
        BillingModule,
        IdentityTfaModule,
        MarketplaceVolumesModule,
        AutoscalingModule,
        ...(runWorker ? [TfaDeliveryWorkerModule] : []),
      ],
      providers: [
        // Order matters: the rate limit keys on the principal that authentication resolves.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: WriteConcurrencyGuard },
        DrainOnShutdown,
      ],
    };
  }
}
