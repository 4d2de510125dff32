import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import {
  ChallengeLookup,
  ChallengeStore,
  DeliveryCopy,
} from '../../application/ports/challenge.store.port';
import { Challenge, ChallengeChannel, ChallengePurpose } from '../../domain/challenge';

const challengeKey = (key: string) => `tfa:challenge:${key}`;
const markerKey = (key: string) => `tfa:secret:${key}`;
const recentSmsKey = (userId: number | string) => `tfa:recent-sms:${userId}`;
const pendingSmsKey = (userId: number) => `tfa:pending-sms:${userId}`;

/** How long a used or timed-out secret is remembered, to answer 2fa_expired / no_challenge_found. */
const MARKER_TTL_MS = 24 * 3600 * 1000;

// Scripts keep each step atomic: a challenge never reappears after it was consumed.
const ATTACH_CODE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
redis.call('HSET', KEYS[1], 'channel', ARGV[1], 'destination', ARGV[2], 'methodId', ARGV[3],
  'codeDigest', ARGV[4], 'codeCiphertext', ARGV[5])
local sends = redis.call('HINCRBY', KEYS[1], 'sends', 1)
redis.call('HSET', KEYS[1], 'deliverySend', sends)
return sends`;

const CONSUME = `
local userId = redis.call('HGET', KEYS[1], 'userId')
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], 'cleared', 'PX', ARGV[1])
local recent = 'tfa:recent-sms:' .. userId
if redis.call('GET', recent) == ARGV[2] then redis.call('DEL', recent) end
return 1`;

const RESEND_CODE = `
if redis.call('HEXISTS', KEYS[1], 'codeCiphertext') == 0 then return nil end
local sends = redis.call('HINCRBY', KEYS[1], 'sends', 1)
redis.call('HSET', KEYS[1], 'deliverySend', sends)
return sends`;

const MARK_DELIVERY_FAILED = `
if redis.call('HGET', KEYS[1], 'deliverySend') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'deliveryFailed', ARGV[1])
end
return 1`;

// RENAME keeps the TTL, so the challenge expires when it always would have.
const REKEY = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[2], 'codeDigest', ARGV[1], 'codeCiphertext', ARGV[2])
redis.call('SET', KEYS[3], 'cleared', 'PX', ARGV[3])
redis.call('SET', KEYS[4], 'open', 'PX', ARGV[3])
return 1`;

const RELEASE_RECENT_SMS = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

@Injectable()
export class RedisChallengeStore extends ChallengeStore {
  constructor(private readonly redis: Redis) {
    super();
  }

  async create(challenge: Challenge, ttlMs: number): Promise<void> {
    const key = challengeKey(challenge.key);
    await this.redis
      .multi()
      .hset(key, {
        id: challenge.id,
        userId: String(challenge.userId),
        purpose: challenge.purpose,
        channel: challenge.channel ?? '',
        destination: challenge.destination ?? '',
        methodId: challenge.methodId === null ? '' : String(challenge.methodId),
        codeDigest: '',
        sends: '0',
        createdAt: String(challenge.createdAtMs),
      })
      .pexpire(key, ttlMs)
      .set(markerKey(challenge.key), 'open', 'PX', MARKER_TTL_MS)
      .exec()
      .then(failOnError);
  }

  async find(key: string): Promise<ChallengeLookup> {
    const fields = await this.redis.hgetall(challengeKey(key));
    if (fields.userId) return { state: 'active', challenge: toChallenge(key, fields) };
    const marker = await this.redis.get(markerKey(key));
    if (marker === null) return { state: 'unknown' };
    return { state: marker === 'cleared' ? 'cleared' : 'expired' };
  }

  async attachCode(
    key: string,
    code: {
      channel: Challenge['channel'];
      destination: string | null;
      methodId: number | null;
      codeDigest: string | null;
      codeCiphertext: string | null;
    },
  ): Promise<number | null> {
    const sends = (await this.redis.eval(
      ATTACH_CODE,
      1,
      challengeKey(key),
      code.channel ?? '',
      code.destination ?? '',
      code.methodId === null ? '' : String(code.methodId),
      code.codeDigest ?? '',
      code.codeCiphertext ?? '',
    )) as number | null;
    return sends;
  }

  async consume(key: string): Promise<boolean> {
    const removed = (await this.redis.eval(
      CONSUME,
      2,
      challengeKey(key),
      markerKey(key),
      String(MARKER_TTL_MS),
      key,
    )) as number;
    return removed === 1;
  }

  async readDeliveryCopy(key: string): Promise<(DeliveryCopy & Challenge) | null> {
    const fields = await this.redis.hgetall(challengeKey(key));
    if (!fields.userId || !fields.codeCiphertext) return null;
    return {
      ...toChallenge(key, fields),
      codeCiphertext: fields.codeCiphertext,
      sendNumber: Number(fields.deliverySend),
    };
  }

  async resendCode(key: string): Promise<number | null> {
    return (await this.redis.eval(RESEND_CODE, 1, challengeKey(key))) as number | null;
  }

  async markDeliveryFailed(key: string, sendNumber: number): Promise<void> {
    await this.redis.eval(MARK_DELIVERY_FAILED, 1, challengeKey(key), String(sendNumber));
  }

  async rememberPendingSms(userId: number, key: string, ttlMs: number): Promise<void> {
    await this.redis.set(pendingSmsKey(userId), key, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async pendingSms(userId: number): Promise<string | null> {
    return this.redis.get(pendingSmsKey(userId));
  }

  async rekey(
    oldKey: string,
    newKey: string,
    code: { codeDigest: string; codeCiphertext: string },
  ): Promise<boolean> {
    const moved = (await this.redis.eval(
      REKEY,
      4,
      challengeKey(oldKey),
      challengeKey(newKey),
      markerKey(oldKey),
      markerKey(newKey),
      code.codeDigest,
      code.codeCiphertext,
      String(MARKER_TTL_MS),
    )) as number;
    return moved === 1;
  }

  async reserveRecentSms(userId: number, key: string, windowMs: number): Promise<boolean> {
    return (await this.redis.set(recentSmsKey(userId), key, 'PX', windowMs, 'NX')) === 'OK';
  }

  async releaseRecentSms(userId: number, key: string): Promise<void> {
    await this.redis.eval(RELEASE_RECENT_SMS, 1, recentSmsKey(userId), key);
  }
}

function failOnError(results: Array<[Error | null, unknown]> | null): void {
  for (const [error] of results ?? []) if (error) throw error;
}

function toChallenge(key: string, fields: Record<string, string>): Challenge {
  return {
    // Challenges written before ids existed are identified by their key.
    id: fields.id || key,
    key,
    userId: Number(fields.userId),
    purpose: fields.purpose as ChallengePurpose,
    channel: (fields.channel || null) as ChallengeChannel | null,
    destination: fields.destination || null,
    methodId: fields.methodId ? Number(fields.methodId) : null,
    codeDigest: fields.codeDigest || null,
    sends: Number(fields.sends ?? 0),
    createdAtMs: Number(fields.createdAt),
  };
}
