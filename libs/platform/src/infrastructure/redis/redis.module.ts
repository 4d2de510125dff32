import { DynamicModule, Module } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiter } from '../../application/ports/rate-limiter.port';
import { PlatformConfig } from '../../config/platform-config';
import { createInProcessRedis } from '../embedded/in-process-redis';
import { RedisConnectionFactory } from './redis-connection.factory';
import { RedisRateLimiter } from './redis-rate-limiter';

/**
 * Redis in whichever topology the configuration names (single, Cluster, Sentinel, or the
 * in-process one of the embedded mode): the connection factory, the shared command
 * connection and the rate limiter. Global, like every platform module: contexts inject
 * what it exports without importing it.
 */
@Module({})
export class RedisModule {
  static forRoot(config: PlatformConfig): DynamicModule {
    return {
      global: true,
      module: RedisModule,
      providers: [
        { provide: RedisConnectionFactory, useValue: new RedisConnectionFactory(config.redis) },
        {
          provide: Redis,
          inject: [RedisConnectionFactory],
          useFactory: (factory: RedisConnectionFactory) =>
            config.embedded ? createInProcessRedis() : factory.createCommandConnection('commands'),
        },
        {
          provide: RateLimiter,
          inject: [Redis],
          useFactory: (redis: Redis) => new RedisRateLimiter(redis),
        },
      ],
      exports: [RedisConnectionFactory, Redis, RateLimiter],
    };
  }
}
