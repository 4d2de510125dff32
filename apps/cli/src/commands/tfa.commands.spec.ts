import { UsageError } from '../errors';
import { InvalidArgumentError } from 'commander';
import { labelOption, totpDisplayMode, verificationBody } from './tfa.commands';
import { backupCodesRemainingNote, renderBackupCodes, renderTfaStatus } from './tfa.render';

describe('tfa commands', () => {
  it('draws a QR code only when stdout is a terminal and --raw is off', () => {
    expect(totpDisplayMode(true, false)).toBe('qr');
    expect(totpDisplayMode(false, false)).toBe('text');
    expect(totpDisplayMode(true, true)).toBe('raw');
    expect(totpDisplayMode(false, true)).toBe('raw');
  });

  it('builds the verification body, leaving absent options out', () => {
    expect(verificationBody({ code: '123456', methodType: 'totp' })).toEqual({
      tfa_method: 'totp',
      code: '123456',
    });
    expect(verificationBody({ backupCode: 'ABCD-EFGH-JKLM' })).toEqual({
      backup_code: 'ABCD-EFGH-JKLM',
    });
    expect(verificationBody({ code: '1', methodId: 9, secret: 'S' })).toEqual({
      tfa_method_id: 9,
      code: '1',
      secret: 'S',
    });
  });

  it('refuses both or neither of code and backup code, and sms/email codes without a secret', () => {
    expect(() => verificationBody({})).toThrow(UsageError);
    expect(() => verificationBody({ code: '1', backupCode: 'X' })).toThrow(UsageError);
    expect(() => verificationBody({ code: '1', methodType: 'sms' })).toThrow(/needs --secret/);
    expect(() => verificationBody({ code: '1', methodType: 'email' })).toThrow(/tfa send-email/);
    // No -t, no method id, no secret: the api would read an sms code and refuse it.
    expect(() => verificationBody({ code: '1' })).toThrow(/-t totp for an authenticator app/);
    expect(verificationBody({ code: '1', secret: 'S' })).toEqual({ code: '1', secret: 'S' });
  });

  it('checks labels against the 30-character limit, counting characters, not bytes', () => {
    expect(labelOption('Phone app')).toBe('Phone app');
    expect(labelOption('é'.repeat(30))).toBe('é'.repeat(30));
    expect(labelOption('📱'.repeat(30))).toBe('📱'.repeat(30));
    expect(() => labelOption('x'.repeat(31))).toThrow('Use 1 to 30 characters (this one has 31).');
    expect(() => labelOption('')).toThrow(InvalidArgumentError);
  });

  it('renders status, backup codes and the remaining-codes note', () => {
    expect(
      renderTfaStatus({ tfa_enabled: false, methods: [], backup_codes_remaining: 0 }),
    ).toContain('No active 2FA methods found.');
    const table = renderTfaStatus({
      tfa_enabled: true,
      backup_codes_remaining: 9,
      methods: [
        {
          id: 1,
          method: 'totp',
          label: 'App',
          is_primary: true,
          created_at: 1762732800,
          fail_count: 0,
        },
        {
          id: 2,
          method: 'sms',
          label: 'Cell',
          phone_number: '***1234',
          is_primary: false,
          fail_count: 2,
        },
      ],
    });
    expect(table).toContain('Backup codes remaining: 9');
    expect(table).toMatch(/^1\s+totp\s+App\s+-\s+yes\s+2025-11-10 00:00\s+-\s+0\s+-$/m);
    expect(table).toMatch(/^2\s+sms\s+Cell\s+\*\*\*1234\s+no\s+-\s+-\s+2\s+-$/m);
    expect(renderBackupCodes(['A', 'B'])).toMatch(/\n {2}1\. A\n {2}2\. B$/);
    expect(backupCodesRemainingNote(undefined)).toBeUndefined();
    expect(backupCodesRemainingNote(2)).toMatch(/^Only 2 backup code/);
    expect(backupCodesRemainingNote(7)).toBe('Backup codes remaining: 7');
  });
});
