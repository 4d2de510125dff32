import {
  eventCursorAfter,
  eventCursorPayload,
  NOTIFIED_KINDS,
  resetReasonProblem,
  SECURITY_EVENT_KINDS,
} from './security-event';

describe('security events', () => {
  it('a cursor payload continues after its id, for its user only', () => {
    const payload = eventCursorPayload(7, 1_000_123);
    expect(eventCursorAfter(payload, 7)).toBe(1_000_123);
    expect(eventCursorAfter(payload, 8)).toBeNull();
  });

  it('anything else is no cursor', () => {
    for (const payload of [
      'not json',
      'null',
      '[]',
      '{"u":7}',
      '{"u":7,"i":0}',
      '{"u":7,"i":-3}',
      '{"u":7,"i":1.5}',
      '{"u":"7","i":12}',
      '{"u":7,"i":"12"}',
      `{"u":7,"i":${Number.MAX_SAFE_INTEGER + 2}}`,
    ])
      expect(eventCursorAfter(payload, 7)).toBeNull();
  });

  it('an admin reset needs a reason of 1 to 500 characters', () => {
    expect(resetReasonProblem('lost phone, identity checked on ticket 42')).toBeNull();
    expect(resetReasonProblem('x'.repeat(500))).toBeNull();
    expect(resetReasonProblem(undefined)).toMatch(/--reason is required/);
    expect(resetReasonProblem('   ')).toMatch(/--reason is required/);
    expect(resetReasonProblem('x'.repeat(501))).toMatch(/at most 500 characters/);
  });

  it('mails the kinds that weaken or alter protection, not logins, updates or revocations', () => {
    expect([...NOTIFIED_KINDS].sort()).toEqual(
      [
        'admin_reset',
        'backup_code_used',
        'backup_codes_regenerated',
        'device_trusted',
        'method_added',
        'method_locked',
        'method_removed',
        'tfa_disabled',
      ].sort(),
    );
    for (const kind of NOTIFIED_KINDS) expect(SECURITY_EVENT_KINDS).toContain(kind);
  });
});
