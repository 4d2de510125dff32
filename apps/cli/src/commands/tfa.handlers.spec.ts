import { UsageError } from '../errors';
import { verificationBody } from './tfa.handlers';

describe('tfa handlers', () => {
  it('builds the verification body, leaving absent options out', () => {
    expect(verificationBody({ code: '123456', methodType: 'totp' })).toEqual({
      tfa_method: 'totp',
      code: '123456',
    });
    expect(verificationBody({ backupCode: 'ABCD-EFGH-JKLM' })).toEqual({
      backup_code: 'ABCD-EFGH-JKLM',
    });
    expect(verificationBody({ code: '1', methodId: 9, secret: 'S' })).toEqual({
      tfa_method_id: 9,
      code: '1',
      secret: 'S',
    });
  });

  it('refuses both or neither of code and backup code, and sms/email codes without a secret', () => {
    expect(() => verificationBody({})).toThrow(UsageError);
    expect(() => verificationBody({ code: '1', backupCode: 'X' })).toThrow(UsageError);
    expect(() => verificationBody({ code: '1', methodType: 'sms' })).toThrow(/needs --secret/);
    expect(() => verificationBody({ code: '1', methodType: 'email' })).toThrow(/tfa send-email/);
    // No -t, no method id, no secret: the api would read an sms code and refuse it.
    expect(() => verificationBody({ code: '1' })).toThrow(/-t totp for an authenticator app/);
    expect(verificationBody({ code: '1', secret: 'S' })).toEqual({ code: '1', secret: 'S' });
  });
});
