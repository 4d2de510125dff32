/** Cryptographically secure randomness; a port so tests can make it deterministic. */
export abstract class RandomSource {
  abstract bytes(length: number): Buffer;

  /** Uniform integer in [0, maxExclusive), without modulo bias. */
  abstract int(maxExclusive: number): number;

  /** A URL-safe token carrying `bits` bits of entropy. */
  token(bits = 256): string {
    return this.bytes(Math.ceil(bits / 8)).toString('base64url');
  }

  /** `length` decimal digits, each uniform. */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += String(this.int(10));
    return out;
  }
}
