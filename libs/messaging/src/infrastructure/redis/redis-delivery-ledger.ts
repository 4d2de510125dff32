import Redis from 'ioredis';

export type DeliveryClaim =
  /** This attempt may send. */
  | { state: 'claimed' }
  /** An earlier attempt was accepted by the provider: nothing more to send. */
  | { state: 'sent'; providerMessageId: string }
  /** An earlier attempt failed for good: the send was abandoned. */
  | { state: 'failed'; code: string }
  /** Another attempt holds a live lease (a job taken over while its first worker still runs). */
  | { state: 'in_flight' }
  /** An earlier attempt may have been accepted (it died or lost its answer): check first. */
  | { state: 'uncertain'; since: Date };

/** What the requester learns about the first attempt (see awaitFirstAttempt). */
export type FirstAttemptOutcome = 'sent' | 'retrying' | string;

/** The prefix is kept from when only 2FA codes went out: ledgers in flight keep their keys. */
export const sendKey = (key: string) => `tfa:delivery:${key}`;
const UNHEARD = 'unheard';

/*
 * One hash per send (its idempotency key):
 *   state          sending | sent | failed (absent: nothing in flight)
 *   leaseUntil     until when the current attempt owns the send (0: given up, outcome unknown)
 *   uncertainSince start of the first attempt whose outcome is unknown
 *   sid            the provider's message id once sent
 *   failure        the failure code once abandoned
 *   first          the first attempt's outcome, or "unheard" when the requester stopped waiting
 */
const CLAIM = `
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'sent' then return {'sent', redis.call('HGET', KEYS[1], 'sid')} end
if state == 'failed' then return {'failed', redis.call('HGET', KEYS[1], 'failure')} end
local now = tonumber(ARGV[1])
if state == 'sending' then
  if now < tonumber(redis.call('HGET', KEYS[1], 'leaseUntil')) then return {'in_flight', ''} end
  redis.call('HSETNX', KEYS[1], 'uncertainSince', redis.call('HGET', KEYS[1], 'startedAt'))
end
redis.call('HSET', KEYS[1], 'state', 'sending', 'startedAt', now, 'leaseUntil', now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local since = redis.call('HGET', KEYS[1], 'uncertainSince')
if since then return {'uncertain', since} end
return {'claimed', ''}`;

const FIRST_ATTEMPT = `
if redis.call('HSETNX', KEYS[1], 'first', ARGV[1]) == 0 then return redis.call('HGET', KEYS[1], 'first') end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return false`;

/**
 * Delivery bookkeeping per send in Redis, so a retried or taken-over
 * job never sends a second message for a send that went out. The claim is a lease: an
 * attempt that outlives it (a killed worker) leaves the send "uncertain", and the next
 * attempt asks the provider before sending again.
 */
export class RedisDeliveryLedger {
  constructor(
    private readonly redis: Redis,
    /** How long the bookkeeping of one send is kept; well past the challenge lifetime. */
    private readonly retentionMs = 24 * 3600 * 1000,
  ) {}

  async claim(key: string, nowMs: number, leaseMs: number): Promise<DeliveryClaim> {
    const [state, detail] = (await this.redis.eval(
      CLAIM,
      1,
      sendKey(key),
      String(nowMs),
      String(leaseMs),
      String(this.retentionMs),
    )) as [string, string | null];
    switch (state) {
      case 'sent':
        return { state, providerMessageId: detail ?? '' };
      case 'failed':
        return { state, code: detail ?? 'delivery_failed' };
      case 'uncertain':
        return { state, since: new Date(Number(detail)) };
      case 'in_flight':
        return { state };
      default:
        return { state: 'claimed' };
    }
  }

  async recordSent(key: string, providerMessageId: string): Promise<void> {
    await this.redis.hset(sendKey(key), { state: 'sent', sid: providerMessageId });
  }

  async recordFailed(key: string, code: string): Promise<void> {
    await this.redis.hset(sendKey(key), { state: 'failed', failure: code });
  }

  /** The attempt certainly sent nothing (refused connection, 5xx, 429): the next may send. */
  async release(key: string): Promise<void> {
    await this.redis.hdel(sendKey(key), 'state', 'leaseUntil');
  }

  /** The attempt may have been accepted (timeout, dropped answer): the next one checks first. */
  async markUncertain(key: string): Promise<void> {
    await this.redis.hset(sendKey(key), 'leaseUntil', '0');
  }

  /**
   * The worker reports the first attempt. False when the requester had already stopped
   * waiting, so nobody will relay this outcome to the client.
   */
  async reportFirstAttempt(key: string, outcome: FirstAttemptOutcome): Promise<boolean> {
    const existing = (await this.redis.eval(
      FIRST_ATTEMPT,
      1,
      sendKey(key),
      outcome,
      String(this.retentionMs),
    )) as string | null;
    return existing === null;
  }

  /**
   * Says up front that nobody will wait for the first attempt (the requester does not wait
   * at all), so a first attempt Twilio rate-limits is retried instead of abandoned for a
   * client who never hears of it. Keeps an outcome already reported.
   */
  async markUnheard(key: string): Promise<void> {
    await this.redis.eval(FIRST_ATTEMPT, 1, sendKey(key), UNHEARD, String(this.retentionMs));
  }

  /**
   * The requester waits up to timeoutMs for the first attempt's outcome, polling the shared
   * connection (blocking commands would need a connection per waiting request). On timeout
   * it leaves "unheard", atomically, so a late report knows nobody is listening.
   */
  async awaitFirstAttempt(key: string, timeoutMs: number): Promise<FirstAttemptOutcome | null> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
      const outcome = await this.redis.hget(sendKey(key), 'first');
      if (outcome !== null && outcome !== UNHEARD) return outcome;
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
    const late = (await this.redis.eval(
      FIRST_ATTEMPT,
      1,
      sendKey(key),
      UNHEARD,
      String(this.retentionMs),
    )) as string | null;
    return late === null || late === UNHEARD ? null : late;
  }
}

/** Every script with the keys it is called with, for the hash-slot check (redis-scripts.spec). */
export const DELIVERY_LEDGER_SCRIPTS = (key: string) => [
  { name: 'CLAIM', lua: CLAIM, keys: [sendKey(key)] },
  { name: 'FIRST_ATTEMPT', lua: FIRST_ATTEMPT, keys: [sendKey(key)] },
];
