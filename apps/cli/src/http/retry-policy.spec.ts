import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  RetryPolicy,
  retryDelay,
} from './retry-policy';

const NOW = new Date('2025-11-10T12:00:00Z');
const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, retries: 3 };

describe('retry policy', () => {
  it('backs off exponentially from 150 ms by 1.5', () => {
    expect([0, 1, 2, 3].map((retry) => backoffMs(policy, retry))).toEqual([
      150, 225, 337.5, 506.25,
    ]);
  });

  it('retries 429, 502, 503, 504 and connection errors, not other statuses', () => {
    for (const status of [429, 502, 503, 504]) {
      expect(retryDelay(policy, 0, { status }, NOW)).toBe(150);
    }
    expect(retryDelay(policy, 0, {}, NOW)).toBe(150);
    for (const status of [400, 401, 403, 404, 500, 501]) {
      expect(retryDelay(policy, 0, { status }, NOW)).toBeNull();
    }
  });

  it('stops after --retry retries; 0 disables retrying', () => {
    expect(retryDelay(policy, 2, { status: 503 }, NOW)).toBe(337.5);
    expect(retryDelay(policy, 3, { status: 503 }, NOW)).toBeNull();
    expect(retryDelay({ ...policy, retries: 0 }, 0, { status: 503 }, NOW)).toBeNull();
  });

  it('waits for Retry-After when it asks for longer than the backoff, never shorter', () => {
    expect(retryDelay(policy, 0, { status: 429, retryAfter: '1' }, NOW)).toBe(1000);
    expect(retryDelay(policy, 3 - 1, { status: 429, retryAfter: '0' }, NOW)).toBe(337.5);
    expect(
      retryDelay(policy, 0, { status: 503, retryAfter: 'Mon, 10 Nov 2025 12:00:02 GMT' }, NOW),
    ).toBe(2000);
  });

  it('gives up at once when Retry-After is longer than a minute', () => {
    expect(retryDelay(policy, 0, { status: 429, retryAfter: '61' }, NOW)).toBeNull();
    expect(retryDelay(policy, 0, { status: 429, retryAfter: '60' }, NOW)).toBe(60_000);
  });

  it('does not retry a 429 refusal with an error code and no Retry-After (e.g. tfa_locked)', () => {
    expect(retryDelay(policy, 0, { status: 429, refusal: true }, NOW)).toBeNull();
    expect(retryDelay(policy, 0, { status: 429, refusal: true, retryAfter: '2' }, NOW)).toBe(2000);
    expect(retryDelay(policy, 0, { status: 503, refusal: true }, NOW)).toBe(150);
  });

  it('parses Retry-After as seconds or an HTTP date, ignoring garbage', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter('Mon, 10 Nov 2025 11:59:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
  });
});
