import { RandomSource } from '../application/ports/random-source.port';
import { CryptoRandomSource } from '../infrastructure/crypto/node-crypto.adapters';

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
