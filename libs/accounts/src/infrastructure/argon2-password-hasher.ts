import * as argon2 from 'argon2';
import { PasswordHasher } from '../application/ports/password-hasher.port';

/** argon2id with the library's defaults (m=64 MiB, t=3, p=4). */
export class Argon2PasswordHasher extends PasswordHasher {
  // A real hash to verify against for unknown users, so they take as long as known ones.
  private readonly decoy = argon2.hash('decoy-password-for-unknown-users', {
    type: argon2.argon2id,
  });

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    try {
      const matched = await argon2.verify(hash ?? (await this.decoy), password);
      return hash !== null && matched;
    } catch {
      return false;
    }
  }
}
