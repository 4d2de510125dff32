import {
  activeChallenge,
  Challenge,
  hasSendsLeft,
  isExpired,
  isPendingSmsOf,
  lifeLeftMs,
  rekeyed,
  repeatsCode,
} from './challenge';
import { TfaError } from './errors';

const MINUTE = 60_000;
const created = Date.UTC(2026, 0, 1, 12);

const challenge = (overrides: Partial<Challenge> = {}): Challenge => ({
  id: 'c1',
  key: 'k1',
  userId: 7,
  purpose: 'verify',
  channel: 'sms',
  destination: '+14155550123',
  methodId: 3,
  codeDigest: 'd1',
  sends: 1,
  createdAtMs: created,
  ...overrides,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof TfaError) return error.code;
    throw error;
  }
  return 'none';
};

describe('challenge rules', () => {
  it('expiry: valid at 9:59.999, expired at 10:00', () => {
    expect(isExpired(challenge(), created + 10 * MINUTE - 1)).toBe(false);
    expect(isExpired(challenge(), created + 10 * MINUTE)).toBe(true);
    expect(lifeLeftMs(challenge(), created + 4 * MINUTE)).toBe(6 * MINUTE);
  });

  it('a lookup answers the active challenge, or says why there is none', () => {
    const active = challenge();
    expect(activeChallenge({ state: 'active', challenge: active }, created)).toBe(active);
    expect(refusal(() => activeChallenge({ state: 'unknown' }, created))).toBe(
      'challenge_not_found',
    );
    expect(refusal(() => activeChallenge({ state: 'cleared' }, created))).toBe(
      'no_challenge_found',
    );
    expect(refusal(() => activeChallenge({ state: 'expired' }, created))).toBe('2fa_expired');
    // The clock decides too, whatever the store's TTL granularity.
    expect(
      refusal(() => activeChallenge({ state: 'active', challenge: active }, created + 10 * MINUTE)),
    ).toBe('2fa_expired');
  });

  it('the attempt budget: 5 sends per challenge', () => {
    expect(hasSendsLeft({ sends: 4 })).toBe(true);
    expect(hasSendsLeft({ sends: 5 })).toBe(false);
  });

  it('the resend rule: the same code only to where it went', () => {
    expect(repeatsCode(challenge(), 'sms', '+14155550123')).toBe(true);
    expect(repeatsCode(challenge(), 'sms', '+14155550999')).toBe(false);
    expect(repeatsCode(challenge(), 'email', '+14155550123')).toBe(false);
    expect(repeatsCode(challenge({ codeDigest: null }), 'sms', '+14155550123')).toBe(false);
  });

  it('the rekey rule: a new key and code binding, everything else kept', () => {
    const original = challenge();
    expect(rekeyed(original, 'k2', 'd2')).toEqual({ ...original, key: 'k2', codeDigest: 'd2' });
    expect(original.key).toBe('k1');
  });

  it('a pending SMS is recovered only by its user, while active and not expired', () => {
    const active = { state: 'active' as const, challenge: challenge() };
    expect(isPendingSmsOf(active, 7, created)).toBe(true);
    expect(isPendingSmsOf(active, 8, created)).toBe(false);
    expect(isPendingSmsOf(active, 7, created + 10 * MINUTE)).toBe(false);
    expect(
      isPendingSmsOf({ state: 'active', challenge: challenge({ channel: 'email' }) }, 7, created),
    ).toBe(false);
    expect(isPendingSmsOf({ state: 'cleared' }, 7, created)).toBe(false);
    expect(isPendingSmsOf(null, 7, created)).toBe(false);
  });
});
