import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { Clock } from '../../application/ports/clock.port';
import { RandomSource } from '../../application/ports/random-source.port';
import { SecretKeeper } from '../../application/ports/secret-keeper.port';
import { EncryptionKey, HmacKey } from '../../config/platform-config';

export class SystemClock extends Clock {
  nowMs(): number {
    return Date.now();
  }
}

export class CryptoRandomSource extends RandomSource {
  bytes(length: number): Buffer {
    return randomBytes(length);
  }

  int(maxExclusive: number): number {
    return randomInt(maxExclusive);
  }
}

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * HMAC fingerprints with per-purpose keys derived by HKDF from versioned master keys (the
 * newest makes, all verify), and AES-256-GCM with a versioned key ring: ciphertexts read
 * `v<version>.<iv>.<tag>.<data>` so keys can be rotated by adding a new version and
 * re-encrypting at leisure.
 */
export class NodeSecretKeeper extends SecretKeeper {
  private readonly derived = new Map<string, Buffer>();
  private readonly keysByVersion: Map<number, Buffer>;
  private readonly currentKey: EncryptionKey;
  /** Newest first. */
  private readonly masterKeys: Buffer[];

  constructor(masterKeys: Buffer | HmacKey[], encryptionKeys: EncryptionKey[]) {
    super();
    const versions = Buffer.isBuffer(masterKeys) ? [{ version: 1, key: masterKeys }] : masterKeys;
    if (versions.length === 0) throw new Error('At least one HMAC key is required');
    this.masterKeys = [...versions].sort((a, b) => b.version - a.version).map((entry) => entry.key);
    if (encryptionKeys.length === 0) throw new Error('At least one encryption key is required');
    this.keysByVersion = new Map(encryptionKeys.map((entry) => [entry.version, entry.key]));
    this.currentKey = encryptionKeys[encryptionKeys.length - 1];
  }

  fingerprint(purpose: string, value: string): string {
    return createHmac('sha256', this.keyFor(purpose)).update(value, 'utf8').digest('hex');
  }

  fingerprints(purpose: string, value: string): string[] {
    return this.masterKeys.map((_key, index) =>
      createHmac('sha256', this.keyFor(purpose, index)).update(value, 'utf8').digest('hex'),
    );
  }

  equal(a: string, b: string): boolean {
    const left = Buffer.from(a, 'utf8');
    const right = Buffer.from(b, 'utf8');
    // Compare equal-length digests so the time taken never depends on where they differ.
    const leftDigest = createHmac('sha256', this.keyFor('compare')).update(left).digest();
    const rightDigest = createHmac('sha256', this.keyFor('compare')).update(right).digest();
    return timingSafeEqual(leftDigest, rightDigest) && left.length === right.length;
  }

  encrypt(plaintext: string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, this.currentKey.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v' + this.currentKey.version, iv, tag, data]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(ciphertext: string, aad: string): string | null {
    const parts = ciphertext.split('.');
    if (parts.length !== 4 || !/^v\d+$/.test(parts[0])) return null;
    const key = this.keysByVersion.get(Number(parts[0].slice(1)));
    if (!key) return null;
    try {
      const [iv, tag, data] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  sign(purpose: string, payload: string): string {
    const body = Buffer.from(payload, 'utf8').toString('base64url');
    const mac = createHmac('sha256', this.keyFor(`sign:${purpose}`))
      .update(body)
      .digest('base64url');
    return `${body}.${mac}`;
  }

  verify(purpose: string, token: string): string | null {
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
    const body = token.slice(0, dot);
    const mac = token.slice(dot + 1);
    // Every version is compared (no early exit): the time taken does not say which matched.
    let valid = false;
    for (let index = 0; index < this.masterKeys.length; index += 1) {
      const expected = createHmac('sha256', this.keyFor(`sign:${purpose}`, index))
        .update(body)
        .digest('base64url');
      valid = this.equal(expected, mac) || valid;
    }
    return valid ? Buffer.from(body, 'base64url').toString('utf8') : null;
  }

  /** The key for `purpose` derived from the master key `index` (0: the newest). */
  private keyFor(purpose: string, index = 0): Buffer {
    const cacheKey = `${index}\u0000${purpose}`;
    let key = this.derived.get(cacheKey);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.masterKeys[index], Buffer.alloc(0), purpose, 32));
      this.derived.set(cacheKey, key);
    }
    return key;
  }
}
