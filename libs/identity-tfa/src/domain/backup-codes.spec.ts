import { BACKUP_CODE_ALPHABET, generateBackupCode, normalizeBackupCode } from './backup-codes';

describe('backup codes', () => {
  it('use 32 unambiguous symbols in XXXX-XXXX-XXXX', () => {
    expect(new Set(BACKUP_CODE_ALPHABET).size).toBe(32);
    expect(BACKUP_CODE_ALPHABET).not.toMatch(/[01IO]/);
    let i = 0;
    const code = generateBackupCode((max) => (i++ * 7) % max);
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  });

  it('normalise case and dashes; reject anything else', () => {
    expect(normalizeBackupCode('abcd-efgh-jklm')).toBe('ABCDEFGHJKLM');
    expect(normalizeBackupCode('ABCDEFGHJKLM')).toBe('ABCDEFGHJKLM');
    expect(normalizeBackupCode('ABCD-EFGH-JKL0')).toBeNull();
    expect(normalizeBackupCode('ABCD-EFGH')).toBeNull();
  });
});
