import { encodeToken } from '../../domain/command-line-token';

/** Cryptographically secure randomness; a port so tests can make it deterministic. */
export abstract class RandomSource {
  abstract bytes(length: number): Buffer;

  /** Uniform integer in [0, maxExclusive), without modulo bias. */
  abstract int(maxExclusive: number): number;

  /**
   * A token carrying `bits` bits of entropy, in letters and digits only (see
   * command-line-token.ts): safe in a URL, a header and after a command-line flag.
   */
  token(bits = 256): string {
    return encodeToken(this.bytes(Math.ceil(bits / 8)));
  }

  /** `length` decimal digits, each uniform. */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += String(this.int(10));
    return out;
  }
}
