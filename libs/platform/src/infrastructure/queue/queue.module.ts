import { DynamicModule, Module } from '@nestjs/common';
import { PlatformConfig } from '../../config/platform-config';
import { RedisConnectionFactory } from '../redis/redis-connection.factory';
import { QueueRegistry } from './queue-registry';

/** Job queues: BullMQ on the platform's Redis, or in process in the embedded mode. */
@Module({})
export class QueueModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      global: true,
      module: QueueModule,
      providers: [
        {
          provide: QueueRegistry,
          inject: [RedisConnectionFactory],
          useFactory: (factory: RedisConnectionFactory) =>
            // A worker's close gets most of the shutdown bound; queues and Redis the rest.
            new QueueRegistry(
              factory,
              config.embedded,
              Math.max(500, config.shutdownTimeoutMs - 5_000),
            ),
        },
      ],
      exports: [QueueRegistry],
    };
  }
}
