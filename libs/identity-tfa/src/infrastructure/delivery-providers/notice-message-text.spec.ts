import { SECURITY_EVENT_KINDS, SecurityEvent } from '../../domain/security-event';
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
    expect(content.html).toContain('&lt;a href=&quot;x&quot;&gt;');
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
