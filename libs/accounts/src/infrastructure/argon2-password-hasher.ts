import * as argon2 from 'argon2';
import { PasswordHasher } from '../application/ports/password-hasher.port';

/**
 * argon2id with OWASP's first recommended parameters (m=19 MiB, t=2, p=1), not the
 * library's defaults (m=64 MiB, t=3, p=4): a check costs about a seventh of the CPU, so a
 * flood of logins across many users cannot take the api's cores (docs/decisions.md
 * "Password hashing"). A hash keeps the parameters it was made with, so older hashes still
 * verify; the login replaces them (needsRehash).
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class Argon2PasswordHasher extends PasswordHasher {
  // A real hash to verify against for unknown users, so they take as long as known ones.
  private readonly decoy = argon2.hash('decoy-password-for-unknown-users', OPTIONS);

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    try {
      const matched = await argon2.verify(hash ?? (await this.decoy), password);
      return hash !== null && matched;
    } catch {
      return false;
    }
  }

  needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, OPTIONS);
    } catch {
      return false;
    }
  }
}
