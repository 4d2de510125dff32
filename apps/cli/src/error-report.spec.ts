import { ApiError, summarizeBody } from './errors';
import { renderApiError } from './error-report';

const NOW = new Date('2025-11-10T12:00:00Z');
const error = (status: number, body: unknown) =>
  new ApiError(status, body, typeof body === 'string' ? body : JSON.stringify(body));

describe('renderApiError', () => {
  it('prints "Error <status> <error>: <msg>"', () => {
    expect(
      renderApiError(
        error(404, { success: false, error: 'auth_error', msg: 'Invalid user key' }),
        false,
        NOW,
      ),
    ).toBe('Error 404 auth_error: Invalid user key\n');
  });

  it('uses detail for the rate-limit body and leaves out a missing code', () => {
    expect(
      renderApiError(
        error(429, { detail: 'API requests too frequent endpoint threshold=1.0' }),
        false,
        NOW,
      ),
    ).toBe('Error 429: API requests too frequent endpoint threshold=1.0\n');
  });

  it('sums up a body that is not JSON in one line and says where to look', () => {
    const html =
      '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';
    expect(renderApiError(new ApiError(502, null, html), false, NOW)).toBe(
      'Error 502: 502 Bad Gateway\n' +
        'Hint: this answer is not JSON, so it did not come from the api: check --url ' +
        '(or $GPUMKT_URL) and any proxy in front of the api.\n',
    );
    expect(summarizeBody('<p>Service\n  <b>down</b></p>')).toBe('Service down');
    expect(summarizeBody('   ')).toBe('(empty body)');
    expect(summarizeBody('x'.repeat(500))).toBe(`${'x'.repeat(197)}...`);
  });

  it('explains that a next page token belongs to its own listing', () => {
    const text = renderApiError(
      error(400, { success: false, error: 'invalid_token', msg: 'Invalid pagination token' }),
      false,
      NOW,
    );
    expect(text).toMatch(/^Error 400 invalid_token: Invalid pagination token\nHint: .*-s and -e/);
  });

  it("a command's own hint replaces the one by error code", () => {
    const refused = error(400, {
      success: false,
      error: 'invalid_token',
      msg: 'Invalid pagination token',
    });
    refused.hint = 'start again without --next.';
    expect(renderApiError(refused, false, NOW)).toBe(
      'Error 400 invalid_token: Invalid pagination token\nHint: start again without --next.\n',
    );
  });

  it('adds the failure count, the lock end and the expiry hint of 2FA errors', () => {
    const locked = renderApiError(
      error(429, {
        error: 'tfa_locked',
        msg: 'Locked',
        fail_count: 5,
        locked_until: NOW.getTime() / 1000 + 65,
      }),
      false,
      NOW,
    );
    expect(locked).toBe(
      'Error 429 tfa_locked: Locked\nFailed attempts: 5\nMethod locked until 2025-11-10 12:01 UTC (1m 05s left).\n',
    );
    expect(
      renderApiError(error(400, { error: '2fa_expired', msg: 'Expired' }), false, NOW),
    ).toContain('gpumkt tfa send-sms');
  });

  it('gives the body as one JSON line with --raw', () => {
    const body = { success: false, error: 'invalid_token', msg: 'Invalid pagination token' };
    expect(renderApiError(error(400, body), true, NOW)).toBe(`${JSON.stringify(body)}\n`);
    expect(JSON.parse(renderApiError(new ApiError(502, null, 'Bad Gateway'), true, NOW))).toEqual({
      success: false,
      status: 502,
      msg: 'Bad Gateway',
    });
  });
});
