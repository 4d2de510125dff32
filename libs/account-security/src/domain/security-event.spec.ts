import { NOTIFIED_KINDS, resetReasonProblem, SECURITY_EVENT_KINDS } from './security-event';

describe('security events', () => {
  it('an admin reset needs a reason of 1 to 500 characters', () => {
    expect(resetReasonProblem('lost phone, identity checked on ticket 42')).toBeNull();
    expect(resetReasonProblem('x'.repeat(500))).toBeNull();
    expect(resetReasonProblem(undefined)).toMatch(/--reason is required/);
    expect(resetReasonProblem('   ')).toMatch(/--reason is required/);
    expect(resetReasonProblem('x'.repeat(501))).toMatch(/at most 500 characters/);
  });

  it('a reason is one line of printable text: control and bidi characters are refused', () => {
    expect(resetReasonProblem('Nutzer hat Telefon verloren, Ausweis geprüft (日本)')).toBeNull();
    expect(resetReasonProblem('red \u001b[31malert\u001b[0m')).toBe(
      '--reason must be one line of printable text (it holds U+001B, a control character)',
    );
    for (const hostile of [
      'title \u001b]0;owned\u0007',
      'two\nlines',
      'tab\there',
      'x\u0085',
      'rtl \u202e gnp.exe',
    ])
      expect(resetReasonProblem(hostile)).toMatch(/^--reason must be one line of printable text/);
  });

  it('mails the kinds that weaken or alter protection or membership, not logins, updates or revocations', () => {
    expect([...NOTIFIED_KINDS].sort()).toEqual(
      [
        'admin_reset',
        'api_key_created',
        'api_key_deleted',
        'api_key_reset',
        'backup_code_used',
        'backup_codes_regenerated',
        'device_trusted',
        'method_added',
        'method_locked',
        'method_removed',
        'team_changed',
        'tfa_disabled',
      ].sort(),
    );
    for (const kind of NOTIFIED_KINDS) expect(SECURITY_EVENT_KINDS).toContain(kind);
  });
});
