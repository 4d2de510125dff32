import { UsageError } from '../errors';
import { oneTimeCode, verificationBody } from './tfa.handlers';

describe('tfa handlers', () => {
  it('builds the verification body, leaving absent options out', () => {
    expect(verificationBody({ code: '123456', methodType: 'totp' })).toEqual({
      tfa_method: 'totp',
      code: '123456',
    });
    expect(verificationBody({ backupCode: 'ABCD-EFGH-JKLM' })).toEqual({
      backup_code: 'ABCD-EFGH-JKLM',
    });
    expect(verificationBody({ code: ' 654321 ', methodId: 9, secret: 'S' })).toEqual({
      tfa_method_id: 9,
      code: '654321',
      secret: 'S',
    });
  });

  it('refuses both or neither of code and backup code, and sms/email codes without a secret', () => {
    expect(() => verificationBody({})).toThrow(UsageError);
    expect(() => verificationBody({ code: '123456', backupCode: 'X' })).toThrow(UsageError);
    expect(() => verificationBody({ code: '123456', methodType: 'sms' })).toThrow(/needs --secret/);
    expect(() => verificationBody({ code: '123456', methodType: 'email' })).toThrow(
      /tfa send-email/,
    );
    // No -t, no method id, no secret: the api would read an sms code and refuse it.
    expect(() => verificationBody({ code: '123456' })).toThrow(/-t totp for an authenticator app/);
    expect(verificationBody({ code: '123456', secret: 'S' })).toEqual({
      code: '123456',
      secret: 'S',
    });
  });

  it('refuses a code that is not 6 digits, without repeating it', () => {
    const attempt = (code: string) => () => verificationBody({ code, methodType: 'totp' });
    expect(attempt('12345')).toThrow(
      new UsageError(
        '--code must be the 6 digits your authenticator app, SMS or email shows (this one has ' +
          '5 digits); a backup code goes with --backup-code (-bc)',
      ),
    );
    expect(attempt('1234567')).toThrow(/this one has 7 digits/);
    expect(attempt('12345a')).toThrow(/this one has 6 characters, not all digits/);
    expect(attempt('ABCD-EFGH-JKLM')).toThrow(/a backup code goes with --backup-code/);
    expect(attempt('98765x')).not.toThrow('98765x');
    expect(oneTimeCode(' 012345\n', 'CODE')).toBe('012345');
  });
});
