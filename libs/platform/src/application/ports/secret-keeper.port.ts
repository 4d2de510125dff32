/**
 * Keyed one-way fingerprints and authenticated encryption with server keys that never
 * reach the database. Each `purpose` gets its own derived key, so a value fingerprinted
 * for one use cannot be replayed as another.
 */
export abstract class SecretKeeper {
  /** HMAC-SHA256 of `value` under the key derived for `purpose`, hex encoded (newest key). */
  abstract fingerprint(purpose: string, value: string): string;

  /**
   * The fingerprint of `value` under every configured key, newest first: what a value
   * stored or handed out before a key rotation may be found under.
   */
  abstract fingerprints(purpose: string, value: string): string[];

  /** Constant-time comparison of two fingerprints or codes. */
  abstract equal(a: string, b: string): boolean;

  /** AES-256-GCM; `aad` binds the ciphertext to its owner (e.g. a method id). */
  abstract encrypt(plaintext: string, aad: string): string;

  /** Returns null when the ciphertext cannot be authenticated or its key is unknown. */
  abstract decrypt(ciphertext: string, aad: string): string | null;

  /** Signs a payload into a compact tamper-evident token (used for pagination cursors). */
  abstract sign(purpose: string, payload: string): string;

  /**
   * The payload of a token made by sign() under any configured key, or null when it was
   * altered or is malformed.
   */
  abstract verify(purpose: string, token: string): string | null;
}
