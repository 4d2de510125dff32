import {
  backupCodesRemainingNote,
  renderBackupCodes,
  renderSecurityEvents,
  renderTfaStatus,
  renderTrustedDevices,
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

  it('renders security events as a table, with the command for the next page', () => {
    const page = {
      success: true as const,
      events: [
        {
          id: 2,
          created_at: Date.UTC(2026, 0, 2, 9, 30) / 1000,
          kind: 'method_added' as const,
          method: 'totp' as const,
          client_address: '203.0.113.7',
          user_agent: 'Browser/1.0',
          details: { method_id: 5 },
        },
        {
          id: 1,
          created_at: Date.UTC(2026, 0, 2, 9, 0) / 1000,
          kind: 'admin_reset' as const,
          method: null,
          client_address: null,
          user_agent: 'manage',
          details: { reason: 'x' },
        },
      ],
      next_token: 'TOKEN',
    };
    expect(renderSecurityEvents(page, 2)).toBe(
      [
        'time (UTC)        kind          method  address      user agent',
        '2026-01-02 09:30  method_added  totp    203.0.113.7  Browser/1.0',
        '2026-01-02 09:00  admin_reset   -       -            manage',
        '',
        'Next page: gpumkt tfa events --limit 2 --next TOKEN',
        '',
      ].join('\n'),
    );
    expect(renderSecurityEvents({ ...page, next_token: null })).not.toContain('Next page');
    expect(renderSecurityEvents({ success: true, events: [], next_token: null })).toBe(
      'No security events.\n',
    );
  });

  it('renders trusted devices, or says there are none', () => {
    const device = {
      id: 1000042,
      created_at: Date.UTC(2026, 0, 2) / 1000,
      last_used: null,
      expires_at: Date.UTC(2026, 1, 1) / 1000,
      user_agent: 'Laptop/1.0',
      client_address: '::1',
    };
    expect(renderTrustedDevices({ success: true, devices: [device] })).toBe(
      [
        'id       created           last used  expires           address  user agent',
        '1000042  2026-01-02 00:00  -          2026-02-01 00:00  ::1      Laptop/1.0',
        '',
        'Revoke one with: gpumkt tfa devices --revoke ID',
        '',
      ].join('\n'),
    );
    expect(renderTrustedDevices({ success: true, devices: [] })).toMatch(/^No trusted devices/);
  });

  it('shows labels, user agents and messages from the api escaped: no colour, title or broken row', () => {
    const table = renderTfaStatus({
      success: true,
      tfa_enabled: true,
      tfa_status: 'enabled',
      methods: [
        {
          id: 5,
          method: 'totp',
          label: 'red\u001b[31m\u001b]0;owned\u0007\nsecond line',
          is_primary: true,
          created_at: 1767225600,
          last_used: null,
          fail_count: 0,
          locked_until: null,
        },
      ],
      backup_codes_remaining: 10,
      new_method_authorized: false,
    } as never);
    expect(controlsBesideLineBreaks(table)).toEqual([]);
    expect(table).toContain('red\\x1b[31m\\x1b]0;owned\\x07\\nsecond line');
    const events = renderSecurityEvents({
      success: true,
      events: [
        {
          id: 1,
          created_at: 1767225600,
          kind: 'login',
          method: 'totp',
          client_address: '203.0.113.7',
          user_agent: 'agent\u001b[2J\r\u202eoverwritten',
          details: {},
        },
      ],
      next_token: null,
    } as never);
    expect(events).toContain('agent\\x1b[2J\\r\\u202eoverwritten');
    expect(events.trimEnd().split('\n')).toHaveLength(2);
    const devices = renderTrustedDevices({
      success: true,
      devices: [
        {
          id: 3,
          created_at: 1767225600,
          last_used: null,
          expires_at: 1769817600,
          user_agent: 'ua\u0007',
          client_address: '::1',
        },
      ],
    } as never);
    expect(devices).toContain('ua\\x07');
    expect(devices).not.toContain('\u0007');
  });
});

/** The control characters of a text, line breaks aside (what a terminal would act on). */
function controlsBesideLineBreaks(text: string): string[] {
  return [...text].filter((char) => char !== '\n' && /\p{Cc}/u.test(char));
}
