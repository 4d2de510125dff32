import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { AuthorizationStore } from '../../application/ports/authorization.store.port';

const authorizationKey = (userId: number) => `tfa:add-method-authorized:${userId}`;

@Injectable()
export class RedisAuthorizationStore extends AuthorizationStore {
  constructor(private readonly redis: Redis) {
    super();
  }

  async grant(userId: number, grantedAtMs: number, ttlMs: number): Promise<void> {
    await this.redis.set(authorizationKey(userId), String(grantedAtMs), 'PX', ttlMs);
  }

  async grantedAt(userId: number): Promise<number | null> {
    const value = await this.redis.get(authorizationKey(userId));
    return value === null ? null : Number(value);
  }
}
