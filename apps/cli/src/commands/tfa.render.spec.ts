import {
  backupCodesRemainingNote,
  renderBackupCodes,
  renderTfaStatus,
  totpDisplayMode,
} from './tfa.render';

describe('tfa rendering', () => {
  it('draws a QR code only when stdout is a terminal and --raw is off', () => {
    expect(totpDisplayMode(true, false)).toBe('qr');
    expect(totpDisplayMode(false, false)).toBe('text');
    expect(totpDisplayMode(true, true)).toBe('raw');
    expect(totpDisplayMode(false, true)).toBe('raw');
  });

  it('renders status, backup codes and the remaining-codes note', () => {
    expect(
      renderTfaStatus({
        success: true,
        tfa_enabled: false,
        tfa_status: 'disabled',
        methods: [],
        backup_codes_remaining: 0,
        new_method_authorized: false,
      }),
    ).toContain('No active 2FA methods found.');
    const table = renderTfaStatus({
      success: true,
      tfa_enabled: true,
      tfa_status: 'enabled',
      backup_codes_remaining: 9,
      new_method_authorized: false,
      methods: [
        {
          id: 1,
          user_id: 5,
          method: 'totp',
          label: 'App',
          phone_number: null,
          is_primary: true,
          created_at: 1762732800,
          last_used: null,
          fail_count: 0,
          locked_until: null,
        },
        {
          id: 2,
          user_id: 5,
          method: 'sms',
          label: 'Cell',
          phone_number: '***1234',
          is_primary: false,
          created_at: 0,
          last_used: null,
          fail_count: 2,
          locked_until: null,
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
