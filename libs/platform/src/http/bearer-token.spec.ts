import { bearerToken } from './bearer-token';

describe('bearerToken', () => {
  it('reads the scheme in any case and trims the token', () => {
    for (const header of ['Bearer KEY', 'bearer KEY', 'BEARER KEY', 'Bearer  KEY', 'Bearer KEY  '])
      expect(bearerToken(header)).toBe('KEY');
  });

  it('is undefined for another scheme or an empty token', () => {
    expect(bearerToken('Basic a2V5')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer    ')).toBeUndefined();
    expect(bearerToken('BearerKEY')).toBeUndefined();
  });
});
