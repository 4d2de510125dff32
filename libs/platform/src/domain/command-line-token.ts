/**
 * Encoding of the random values we hand to people (2FA secrets, API and session keys,
 * worker keys). Letters and digits only: a value is one shell word, never starts with
 * '-' (a command-line parser would read it as a flag, so the printed follow-up command
 * would fail), needs no quoting and is selected whole by a double click. See
 * docs/decisions.md "Secrets people paste".
 */
export const TOKEN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const BASE = BigInt(TOKEN_ALPHABET.length);

/**
 * Characters needed so that every string of `byteLength` bytes has its own token
 * (62^width >= 256^byteLength). 16 bytes take 22 characters and 32 bytes 43: the same
 * lengths as unpadded base64url, so no stored or documented length changes.
 */
export function tokenWidth(byteLength: number): number {
  const needed = 1n << BigInt(8 * byteLength);
  let width = 0;
  for (let capacity = 1n; capacity < needed; capacity *= BASE) width += 1;
  return width;
}

/**
 * The bytes as one fixed-width base-62 number. A bijection onto its range, so the token
 * carries exactly the entropy of the bytes: nothing is rejected, clamped or biased.
 */
export function encodeToken(bytes: Buffer): string {
  let value = bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`);
  const chars = new Array<string>(tokenWidth(bytes.length));
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    chars[i] = TOKEN_ALPHABET[Number(value % BASE)];
    value /= BASE;
  }
  return chars.join('');
}

/** The bytes a token was made from; null for anything encodeToken cannot have produced. */
export function decodeToken(token: string, byteLength: number): Buffer | null {
  if (token.length !== tokenWidth(byteLength)) return null;
  let value = 0n;
  for (const char of token) {
    const digit = TOKEN_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * BASE + BigInt(digit);
  }
  if (value >= 1n << BigInt(8 * byteLength)) return null;
  const hex = value.toString(16).padStart(2 * byteLength, '0');
  return Buffer.from(hex, 'hex');
}
