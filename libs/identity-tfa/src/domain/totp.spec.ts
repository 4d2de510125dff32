import {
  encodeBase32,
  isValidTotpSecret,
  matchTotpStep,
  provisioningUri,
  totpCodeForStep,
} from './totp';

describe('TOTP (RFC 6238, SHA1, 6 digits, 30 s)', () => {
  // RFC 6238 Appendix B: the ASCII secret "12345678901234567890".
  const secret = encodeBase32(Buffer.from('12345678901234567890'));

  it('matches the RFC test vectors (last 6 digits)', () => {
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpCodeForStep(secret, Math.floor(59 / 30))).toBe('287082');
    expect(totpCodeForStep(secret, Math.floor(1111111109 / 30))).toBe('081804');
    expect(totpCodeForStep(secret, Math.floor(2000000000 / 30))).toBe('279037');
  });

  it('matches the previous and the current step only', () => {
    const now = 1111111109 * 1000;
    const equal = (a: string, b: string) => a === b;
    const step = Math.floor(1111111109 / 30);
    expect(matchTotpStep(secret, totpCodeForStep(secret, step), now, equal)).toBe(step);
    expect(matchTotpStep(secret, totpCodeForStep(secret, step - 1), now, equal)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCodeForStep(secret, step - 2), now, equal)).toBeNull();
    expect(matchTotpStep(secret, totpCodeForStep(secret, step + 1), now, equal)).toBeNull();
  });

  it('validates base32 secrets and builds the otpauth URI', () => {
    expect(isValidTotpSecret(secret)).toBe(true);
    expect(isValidTotpSecret('not base32!')).toBe(false);
    expect(isValidTotpSecret('ABC')).toBe(false);
    expect(provisioningUri('GPU Marketplace', 'a@b.test', 'ABCD')).toBe(
      'otpauth://totp/GPU%20Marketplace:a%40b.test?secret=ABCD&issuer=GPU+Marketplace&algorithm=SHA1&digits=6&period=30',
    );
  });
});
