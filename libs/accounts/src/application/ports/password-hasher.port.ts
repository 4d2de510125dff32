export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  /** Also spends the full verification time when `hash` is null (unknown user). */
  abstract verify(hash: string | null, password: string): Promise<boolean>;
  /** True for a hash made with other parameters than `hash` makes today. */
  abstract needsRehash(hash: string): boolean;
}
