import { Clock } from '../application/ports/clock.port';
import { RandomSource } from '../application/ports/random-source.port';
import { RateLimiter } from '../application/ports/rate-limiter.port';
import { UnitOfWork } from '../application/ports/unit-of-work.port';
import {
  CryptoRandomSource,
  NodeSecretKeeper,
} from '../infrastructure/crypto/node-crypto.adapters';

/** A clock that moves only when told to. */
export class ManualClock extends Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {
    super();
  }

  nowMs(): number {
    return this.current;
  }

  set(ms: number): void {
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/** Deterministic randomness for unit tests (a xorshift sequence from a seed). */
export class SeededRandomSource extends RandomSource {
  constructor(private state = 0x2545f491) {
    super();
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i += 1) out[i] = this.next() & 0xff;
    return out;
  }

  int(maxExclusive: number): number {
    return this.next() % maxExclusive;
  }

  private next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }
}

/**
 * The CSPRNG, except for draws queued with `nextBytes`: each is served to the next
 * `bytes()` call of the same length, so a test can make one particular token (say, a
 * secret whose old base64url form began with '-') without fixing every other draw.
 */
export class ScriptedRandomSource extends RandomSource {
  private readonly queued: Buffer[] = [];
  private readonly fallback = new CryptoRandomSource();

  nextBytes(bytes: Buffer): void {
    this.queued.push(Buffer.from(bytes));
  }

  /** Queued draws not yet served. */
  get pending(): number {
    return this.queued.length;
  }

  bytes(length: number): Buffer {
    const index = this.queued.findIndex((bytes) => bytes.length === length);
    if (index < 0) return this.fallback.bytes(length);
    return this.queued.splice(index, 1)[0];
  }

  int(maxExclusive: number): number {
    return this.fallback.int(maxExclusive);
  }
}

/** No transaction at all: work runs as it is, and an after-commit effect at once. */
export class InlineUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  afterCommit(effect: () => unknown): void {
    void effect();
  }
}

export class InMemoryRateLimiter extends RateLimiter {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: Clock) {
    super();
  }

  async acquire(bucket: string, identity: string, intervalSeconds: number): Promise<number> {
    const key = `${bucket}:${identity}`;
    const now = this.clock.nowMs();
    const free = this.until.get(key) ?? 0;
    if (free > now) return free - now;
    this.until.set(key, now + intervalSeconds * 1000);
    return 0;
  }
}

/** A real secret keeper with fixed test keys. */
export function testSecretKeeper(): NodeSecretKeeper {
  return new NodeSecretKeeper(Buffer.from('unit-test-hmac-key-unit-test-hmac-key'), [
    { version: 1, key: Buffer.alloc(32, 1) },
  ]);
}
export * from './redis-slots';

/** The lag-tolerant reads of a deployment without a replica: for adapters' int-specs. */
export { PrimaryOnlyReads } from '../infrastructure/database/replica-reads';
