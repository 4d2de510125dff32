import { PasswordHasher } from '../application/ports/password-hasher.port';

/** Not a hash at all: a readable stand-in so tests can see which password was stored. */
export class FakePasswordHasher extends PasswordHasher {
  /** The stored hashes each verification was asked about, in order. */
  readonly verified: Array<string | null> = [];

  async hash(password: string): Promise<string> {
    return `hashed:${password}`;
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    this.verified.push(hash);
    return hash !== null && (hash === `hashed:${password}` || hash === `legacy:${password}`);
  }

  /** `legacy:<password>` stands for a hash made with older parameters; it verifies too. */
  needsRehash(hash: string): boolean {
    return hash.startsWith('legacy:');
  }
}
