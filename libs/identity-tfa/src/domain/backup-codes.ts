/** 32 symbols without the look-alikes 0/O and 1/I: 5 bits each, 60 bits per code. */
export const BACKUP_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const GROUP = 4;
const GROUPS = 3;

/** `XXXX-XXXX-XXXX` from a uniform index source (a CSPRNG in production). */
export function generateBackupCode(randomIndex: (maxExclusive: number) => number): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP; i += 1)
      group += BACKUP_CODE_ALPHABET[randomIndex(BACKUP_CODE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** Case-insensitive, dashes and spaces optional; null when it cannot be a backup code. */
export function normalizeBackupCode(input: string): string | null {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  if (compact.length !== GROUP * GROUPS) return null;
  for (const symbol of compact) if (!BACKUP_CODE_ALPHABET.includes(symbol)) return null;
  return compact;
}

/** The keyed-digest purpose of backup codes (SECRET_HMAC_KEY derives a key per purpose). */
export const BACKUP_CODE_PURPOSE = 'tfa-backup-code';

/** What a backup code's digest is taken of: the code bound to its user. */
export function backupCodeMaterial(userId: number, normalized: string): string {
  return `${userId}:${normalized}`;
}
