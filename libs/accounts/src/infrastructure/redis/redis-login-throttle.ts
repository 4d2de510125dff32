import Redis from 'ioredis';
import { LoginThrottle, ThrottleScope } from '../../application/ports/login-throttle.port';

export interface LoginThrottleSettings {
  enabled: boolean;
  windowSeconds: number;
  /** Attempts allowed per key prefix within the window, e.g. {user: 10, addr: 50, device: 10}. */
  maxFailures: Record<string, number>;
}

/*
 * One key per script: a user's and an address's counters sit in different hash slots of a
 * Redis Cluster. Each key admits atomically; admit() takes them in turn and gives back the
 * ones already taken when a later one refuses. No key ever counts past its budget, so
 * parallel attempts never get more password checks than any budget allows; meanwhile a
 * concurrent attempt may see a count one higher than it ends up (it is refused, not admitted).
 */
const ADMIT_ONE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2], 'NX')
return 1`;

const GIVE_BACK_ONE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

/* Clears a counter and answers what it held. */
const TAKE_ALL = `
local held = tonumber(redis.call('GET', KEYS[1]) or '0')
redis.call('DEL', KEYS[1])
return held`;

/* Takes ARGV[1] off a counter, never below zero. */
const TAKE_OFF = `
local left = tonumber(redis.call('GET', KEYS[1]) or '0') - tonumber(ARGV[1])
if left > 0 then redis.call('SET', KEYS[1], left, 'KEEPTTL') else redis.call('DEL', KEYS[1]) end
return 1`;

export const loginThrottleKey = (key: string) => `login-failures:${key}`;

/** Every script with the keys it is called with, for the hash-slot check (redis-scripts.spec). */
export const LOGIN_THROTTLE_SCRIPTS = [
  { name: 'ADMIT_ONE', lua: ADMIT_ONE, keys: [loginThrottleKey('user:1')] },
  { name: 'GIVE_BACK_ONE', lua: GIVE_BACK_ONE, keys: [loginThrottleKey('addr:127.0.0.1')] },
  { name: 'TAKE_ALL', lua: TAKE_ALL, keys: [loginThrottleKey('user-addr:1:127.0.0.1')] },
  { name: 'TAKE_OFF', lua: TAKE_OFF, keys: [loginThrottleKey('user:1')] },
];

/** Attempt counters with a fixed window, shared across api processes. */
export class RedisLoginThrottle extends LoginThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly settings: LoginThrottleSettings,
  ) {
    super();
  }

  async admit(scope: ThrottleScope): Promise<boolean> {
    if (!this.settings.enabled) return true;
    const { keys } = scope;
    const taken: string[] = [];
    try {
      for (const key of keys) {
        const admitted = await this.redis.eval(
          ADMIT_ONE,
          1,
          loginThrottleKey(key),
          String(this.limitFor(key)),
          String(this.settings.windowSeconds),
        );
        if (admitted !== 1) {
          await this.giveBack(taken);
          return false;
        }
        taken.push(key);
      }
    } catch (error) {
      await this.giveBack(taken).catch(() => undefined);
      throw error;
    }
    return true;
  }

  /*
   * Two steps (the counters sit in different hash slots of a Redis Cluster): clearing
   * `own`, then taking what it held off `within`. A concurrent attempt between them sees the
   * user's count higher than it ends up: it errs towards refusing.
   */
  async succeeded(scope: ThrottleScope): Promise<void> {
    if (!this.settings.enabled) return;
    const forgiven = Number(await this.redis.eval(TAKE_ALL, 1, loginThrottleKey(scope.own)));
    if (scope.within && forgiven > 0)
      await this.redis.eval(TAKE_OFF, 1, loginThrottleKey(scope.within), String(forgiven));
    // One success must not clear a whole address's record: only its own attempt goes.
    await this.giveBack(scope.keys.filter((key) => key !== scope.own && key !== scope.within));
  }

  private async giveBack(keys: string[]): Promise<void> {
    for (const key of keys) await this.redis.eval(GIVE_BACK_ONE, 1, loginThrottleKey(key));
  }

  private limitFor(key: string): number {
    return this.settings.maxFailures[key.split(':')[0]] ?? Number.MAX_SAFE_INTEGER;
  }
}
