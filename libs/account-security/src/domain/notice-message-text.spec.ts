import { SECURITY_EVENT_KINDS, SecurityEvent } from './security-event';
import { noticeContent } from './notice-message-text';

const event = (overrides: Partial<SecurityEvent> = {}): SecurityEvent => ({
  id: 1_000_001,
  userId: 7,
  kind: 'method_added',
  method: 'totp',
  details: { method_id: 12 },
  origin: { address: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' },
  occurredAt: new Date(Date.UTC(2026, 0, 2, 9, 30, 5)),
  ...overrides,
});

describe('security notice wording', () => {
  it('says what happened, when (UTC), from where, and what to do if it was not the user', () => {
    const content = noticeContent('GPU Marketplace', event());
    expect(content.subject).toBe('GPU Marketplace security notice: a two-factor method was added');
    expect(content.text).toContain(
      'A two-factor method was added to your account: an authenticator app.',
    );
    expect(content.text).toContain('When: 2026-01-02 09:30:05 UTC');
    expect(content.text).toContain(
      'From: address 203.0.113.7, browser or client "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"',
    );
    expect(content.text).toContain('If it was not, change your password now');
    expect(content.html).toContain('When: 2026-01-02 09:30:05 UTC');
  });

  it('has words for every kind', () => {
    for (const kind of SECURITY_EVENT_KINDS) {
      const { subject, text } = noticeContent('B', event({ kind }));
      expect(subject).toMatch(/^B security notice: \S/);
      expect(text.split('\n')[0].length).toBeGreaterThan(20);
    }
  });

  it('uses the counts the event holds', () => {
    expect(
      noticeContent(
        'B',
        event({ kind: 'backup_code_used', method: 'backup_code', details: { remaining: 1 } }),
      ).text,
    ).toContain('(1 code is left)');
    expect(
      noticeContent('B', event({ kind: 'device_trusted', method: null, details: { days: 30 } }))
        .text,
    ).toContain('for 30 days, your password alone signs in from it');
  });

  it('names an API key by its name (quoted, plain text, shortened) and its prefix', () => {
    const key = (kind: 'api_key_created' | 'api_key_deleted' | 'api_key_reset', name: unknown) =>
      noticeContent(
        'B',
        event({
          kind,
          method: null,
          details: { key_id: 3, name: name as string, prefix: 'gmk_AbC1' },
        }),
      );
    expect(key('api_key_created', 'CI deploy').text.split('\n')[0]).toBe(
      'An API key was created for your account: "CI deploy", the key beginning gmk_AbC1.',
    );
    expect(key('api_key_deleted', null).text.split('\n')[0]).toBe(
      'An API key of your account was deleted and no longer works: the key beginning gmk_AbC1.',
    );
    expect(key('api_key_reset', null).subject).toBe(
      'B security notice: your main API key was replaced',
    );
    const hostile = key(
      'api_key_created',
      `Visit evil.example\r\nBcc: victim@example.test\u0007${'z'.repeat(200)}`,
    );
    const first = hostile.text.split('\n')[0];
    expect(first).toMatch(
      /^An API key was created for your account: "Visit evil\.example\?\?Bcc: victim@example\.test\?z+\.\.\.", the key beginning gmk_AbC1\.$/,
    );
    expect(hostile.text).not.toContain('\r');
  });

  it('an operator command is named as such, not by an address', () => {
    const { text } = noticeContent(
      'B',
      event({ kind: 'admin_reset', method: null, origin: { address: null, userAgent: 'manage' } }),
    );
    expect(text).toContain('From: an operator of the service');
  });

  it('quotes the user agent, on one printable line, shortened, and escapes it in HTML', () => {
    const hostile = `<a href="x">click</a>\r\nBcc: victim@example.test\u0007${'y'.repeat(200)}`;
    const content = noticeContent('B', event({ origin: { address: '::1', userAgent: hostile } }));
    const from = content.text.split('\n').find((line) => line.startsWith('From:'))!;
    expect([from.includes('\r'), from.includes('\u0007')]).toEqual([false, false]);
    expect(from).toContain('Bcc: victim@example.test');
    expect(from.length).toBeLessThan(200);
    expect(content.html).not.toContain('<a href');
    expect(content.html).toContain('&lt;a href=\\&quot;x\\&quot;&gt;');
  });

  it('keeps a user agent inside its quotes: its own quotes and backslashes are escaped', () => {
    const line = (userAgent: string) =>
      noticeContent('B', event({ origin: { address: '::1', userAgent } }))
        .text.split('\n')
        .find((text) => text.startsWith('From:'))!;
    expect(line('Evil" Support: call +1-555-0100 now.')).toBe(
      'From: address ::1, browser or client "Evil\\" Support: call +1-555-0100 now."',
    );
    expect(line('a\\" b')).toBe('From: address ::1, browser or client "a\\\\\\" b"');
  });

  it('shows letters of any script as they are; control, format and bidi characters as ?', () => {
    const content = noticeContent(
      'B',
      event({ origin: { address: '::1', userAgent: 'Navigateur Déjà Vu 日本\u202e\u0000/1' } }),
    );
    expect(content.text).toContain('browser or client "Navigateur Déjà Vu 日本??/1"');
    expect(content.html).toContain('Navigateur Déjà Vu 日本??/1');
  });

  it('an admin reset says only what it changed', () => {
    const sentence = (details: Record<string, unknown>) =>
      noticeContent(
        'B',
        event({ kind: 'admin_reset', method: null, details: details as never }),
      ).text.split('\n')[0];
    expect(
      sentence({
        tfa_turned_off: true,
        methods_removed: 2,
        backup_codes_revoked: 9,
        sessions_revoked: 1,
        devices_revoked: 0,
      }),
    ).toBe(
      'An administrator reset two-factor authentication on your account: two-factor ' +
        'authentication was turned off, 2 two-factor methods were removed, 9 unused backup ' +
        'codes were revoked and 1 session was ended. Your password alone now signs in until ' +
        'you set two-factor authentication up again.',
    );
    expect(
      sentence({
        tfa_turned_off: false,
        methods_removed: 0,
        backup_codes_revoked: 0,
        sessions_revoked: 2,
        devices_revoked: 0,
      }),
    ).toBe(
      'An administrator reset two-factor authentication on your account: 2 sessions were ended.',
    );
  });

  it('a backup code that leaves none says so', () => {
    const { text } = noticeContent(
      'B',
      event({ kind: 'backup_code_used', method: 'backup_code', details: { remaining: 0 } }),
    );
    expect(text).toContain('(no backup codes are left)');
  });

  it('carries no detail it was not written to carry (the reason of a reset stays in the event)', () => {
    const { text, html } = noticeContent(
      'B',
      event({ kind: 'admin_reset', method: null, details: { reason: 'ticket 4711: ID checked' } }),
    );
    expect(text).not.toContain('4711');
    expect(html).not.toContain('4711');
  });
});
