import { classifySmtpError } from './smtp-failure';

describe('SMTP failure mapping', () => {
  it.each([550, 553, 554])('reply %i is a permanent refusal', (responseCode) => {
    const failure = classifySmtpError({ code: 'EENVELOPE', responseCode });
    expect(failure.kind).toBe('rejected');
    expect(failure.retryable).toBe(false);
    expect(failure.providerCode).toBe(responseCode);
  });

  it.each([421, 450, 451, 452])('reply %i is transient (greylisting, busy)', (responseCode) => {
    expect(classifySmtpError({ code: 'EMESSAGE', responseCode }).kind).toBe('transient');
  });

  it.each(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS'])('%s is transient', (code) => {
    expect(classifySmtpError({ code }).retryable).toBe(true);
  });

  it('refused credentials are permanent', () => {
    expect(classifySmtpError({ code: 'EAUTH' }).kind).toBe('rejected');
  });

  it('anything unrecognised is retried rather than dropped', () => {
    expect(classifySmtpError(new Error('?')).kind).toBe('transient');
    expect(classifySmtpError(undefined).kind).toBe('transient');
  });
});
