import { originOf, USER_AGENT_MAX_LENGTH } from './request-origin';

describe('originOf', () => {
  it('keeps the address and the user agent as they came', () => {
    expect(originOf('203.0.113.7', 'curl/8.0')).toEqual({
      address: '203.0.113.7',
      userAgent: 'curl/8.0',
    });
  });

  it('cuts the user agent to 256 characters, counted as characters', () => {
    const long = `${'é'.repeat(USER_AGENT_MAX_LENGTH)}tail`;
    const { userAgent } = originOf('::1', long);
    expect([...userAgent!]).toHaveLength(256);
    expect(userAgent).toBe('é'.repeat(256));
  });

  it('absent or empty values are null', () => {
    expect(originOf(undefined, undefined)).toEqual({ address: null, userAgent: null });
    expect(originOf('', '')).toEqual({ address: null, userAgent: null });
  });
});
