import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import {
  AttachedCode,
  ChallengeStore,
  DeliveryCopy,
} from '../../application/ports/challenge.store.port';
import {
  Challenge,
  ChallengeChannel,
  ChallengeLookup,
  ChallengePurpose,
} from '../../domain/challenge';

/*
 * A challenge and its secret's marker share the hash tag {<challenge key>}, so the scripts
 * and the MULTI that touch both run in one slot of a Redis Cluster. The recent-SMS and
 * pending-SMS markers are per user and always used alone. Keys without the tag, written
 * by earlier versions, are not read (docs/operations.md "Rolling upgrades").
 */
export const challengeKey = (key: string) => `tfa:challenge:{${key}}`;
export const markerKey = (key: string) => `tfa:secret:{${key}}`;
export const recentSmsKey = (userId: number | string) => `tfa:recent-sms:${userId}`;
export const pendingSmsKey = (userId: number) => `tfa:pending-sms:${userId}`;
export const pendingEmailKey = (userId: number, purpose: ChallengePurpose) =>
  `tfa:pending-email:${purpose}:${userId}`;

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

// Answers the owner's id (the caller then releases the user's recent-SMS marker), or false.
const CONSUME = `
local userId = redis.call('HGET', KEYS[1], 'userId')
if redis.call('DEL', KEYS[1]) == 0 then return false end
redis.call('SET', KEYS[2], 'cleared', 'PX', ARGV[1])
return userId`;

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

/*
 * A re-key moves a challenge between two secrets, hence two hash slots: it is a copy then
 * a removal, each atomic in its own slot (see rekey()).
 */
const READ_FOR_REKEY = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return false end
return {ttl, redis.call('HGETALL', KEYS[1])}`;

// The copy keeps the remaining lifetime, so the challenge expires when it always would have.
const PLACE_REKEYED = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], 'open', 'PX', ARGV[2])
return 1`;

// Removes the old copy only if nothing changed it since it was read (same send count).
const REMOVE_REKEYED = `
if redis.call('HGET', KEYS[1], 'sends') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], 'cleared', 'PX', ARGV[2])
return 1`;

const DISCARD = `
redis.call('DEL', KEYS[1], KEYS[2])
return 1`;

// Answers the key it replaces (or false), in one step: two sends at once never both keep one.
const REPLACE_PENDING = `
local previous = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return previous`;

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

  async attachCode(key: string, code: AttachedCode): Promise<number | null> {
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
    const userId = (await this.redis.eval(
      CONSUME,
      2,
      challengeKey(key),
      markerKey(key),
      String(MARKER_TTL_MS),
    )) as string | null;
    if (userId === null) return false;
    // The user's recent-SMS marker sits in another slot: released in a step of its own.
    // Should that step not happen, the marker only holds back a new SMS until it expires.
    await this.releaseRecentSms(Number(userId), key).catch(() => undefined);
    return true;
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

  async replacePendingEmail(
    userId: number,
    purpose: ChallengePurpose,
    key: string,
    ttlMs: number,
  ): Promise<string | null> {
    const previous = (await this.redis.eval(
      REPLACE_PENDING,
      1,
      pendingEmailKey(userId, purpose),
      key,
      String(Math.max(1, Math.ceil(ttlMs))),
    )) as string | null;
    return previous || null;
  }

  async rekey(
    oldKey: string,
    newKey: string,
    code: { codeDigest: string; codeCiphertext: string },
  ): Promise<boolean> {
    // Copy, then remove the original only if it is unchanged. Between the two steps both
    // secrets name the same challenge id, and single use is decided by that id in
    // PostgreSQL (docs/identity-tfa.md "Counting failures"), so the overlap never lets a
    // code count twice; the new secret is handed out only after the removal succeeded.
    const found = (await this.redis.eval(READ_FOR_REKEY, 1, challengeKey(oldKey))) as
      [number, string[]] | null;
    if (!found) return false;
    const [ttlMs, flat] = found;
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
    if (!fields.userId) return false;
    Object.assign(fields, { codeDigest: code.codeDigest, codeCiphertext: code.codeCiphertext });
    const placed = (await this.redis.eval(
      PLACE_REKEYED,
      2,
      challengeKey(newKey),
      markerKey(newKey),
      String(ttlMs),
      String(MARKER_TTL_MS),
      ...Object.entries(fields).flat(),
    )) as number;
    if (placed !== 1) return false;
    const removed = await this.redis
      .eval(
        REMOVE_REKEYED,
        2,
        challengeKey(oldKey),
        markerKey(oldKey),
        fields.sends ?? '',
        String(MARKER_TTL_MS),
      )
      .catch(async (error: unknown) => {
        await this.discard(newKey);
        throw error;
      });
    if (removed === 1) return true;
    // The original was used or changed meanwhile: the copy must not outlive it.
    await this.discard(newKey);
    return false;
  }

  private async discard(key: string): Promise<void> {
    await this.redis.eval(DISCARD, 2, challengeKey(key), markerKey(key)).catch(() => undefined);
  }

  async reserveRecentSms(userId: number, key: string, windowMs: number): Promise<boolean> {
    return (await this.redis.set(recentSmsKey(userId), key, 'PX', windowMs, 'NX')) === 'OK';
  }

  async releaseRecentSms(userId: number, key: string): Promise<void> {
    await this.redis.eval(RELEASE_RECENT_SMS, 1, recentSmsKey(userId), key);
  }
}

/** Every script with the keys it is called with, for the hash-slot check (redis-scripts.spec). */
export const CHALLENGE_STORE_SCRIPTS = (key: string, otherKey: string, userId: number) => [
  { name: 'ATTACH_CODE', lua: ATTACH_CODE, keys: [challengeKey(key)] },
  { name: 'CONSUME', lua: CONSUME, keys: [challengeKey(key), markerKey(key)] },
  { name: 'RESEND_CODE', lua: RESEND_CODE, keys: [challengeKey(key)] },
  { name: 'MARK_DELIVERY_FAILED', lua: MARK_DELIVERY_FAILED, keys: [challengeKey(key)] },
  { name: 'READ_FOR_REKEY', lua: READ_FOR_REKEY, keys: [challengeKey(key)] },
  {
    name: 'PLACE_REKEYED',
    lua: PLACE_REKEYED,
    keys: [challengeKey(otherKey), markerKey(otherKey)],
  },
  { name: 'REMOVE_REKEYED', lua: REMOVE_REKEYED, keys: [challengeKey(key), markerKey(key)] },
  { name: 'DISCARD', lua: DISCARD, keys: [challengeKey(otherKey), markerKey(otherKey)] },
  { name: 'RELEASE_RECENT_SMS', lua: RELEASE_RECENT_SMS, keys: [recentSmsKey(userId)] },
  { name: 'REPLACE_PENDING', lua: REPLACE_PENDING, keys: [pendingEmailKey(userId, 'verify')] },
  // create(): one MULTI over the challenge and its marker.
  { name: 'create (MULTI)', lua: null, keys: [challengeKey(key), markerKey(key)] },
];

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
