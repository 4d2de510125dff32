import { DeliveryFailure } from '../../domain/delivery-failure';
import { readTwilioAnswer, twilioNetworkFailure } from './twilio-response';

function failureOf(answer: { status: number; body: unknown }): DeliveryFailure {
  try {
    readTwilioAnswer(answer);
  } catch (error) {
    return error as DeliveryFailure;
  }
  throw new Error('expected a failure');
}

describe('Twilio answer mapping', () => {
  it('a 201 with a sid is the provider message id', () => {
    expect(readTwilioAnswer({ status: 201, body: { sid: 'SM123', status: 'queued' } })).toEqual({
      providerMessageId: 'SM123',
    });
  });

  it.each([
    [21211, 'invalid To number'],
    [21614, 'not a mobile number'],
    [21612, 'unreachable'],
    [21408, 'region not enabled'],
  ])('a 400 with Twilio %i (%s) is a permanent twilio_error (400)', (code) => {
    const failure = failureOf({ status: 400, body: { code, message: 'x', status: 400 } });
    expect(failure).toBeInstanceOf(DeliveryFailure);
    expect(failure.code).toBe('twilio_error');
    expect(failure.kind).toBe('rejected');
    expect(failure.retryable).toBe(false);
    expect(failure.providerCode).toBe(code);
  });

  it('bad credentials (401, 20003) are permanent too: a retry would fail the same way', () => {
    const failure = failureOf({ status: 401, body: { code: 20003, message: 'Authenticate' } });
    expect(failure.code).toBe('twilio_error');
    expect(failure.retryable).toBe(false);
  });

  it("the provider's 429 is twilio_rate_limited and retryable", () => {
    const failure = failureOf({ status: 429, body: { code: 20429, status: 429 } });
    expect(failure.code).toBe('twilio_rate_limited');
    expect(failure.kind).toBe('rate_limited');
    expect(failure.retryable).toBe(true);
  });

  it('error 20429 counts as rate limiting whatever the status', () => {
    expect(failureOf({ status: 400, body: { code: 20429 } }).kind).toBe('rate_limited');
  });

  it.each([500, 502, 503, 504])('HTTP %i is transient', (status) => {
    const failure = failureOf({ status, body: null });
    expect(failure.kind).toBe('transient');
    expect(failure.retryable).toBe(true);
  });

  it('a 2xx without a sid is transient (the outcome is unknown, a retry reconciles)', () => {
    expect(failureOf({ status: 201, body: '<html>' }).kind).toBe('transient');
  });

  it('no answer at all (refused, reset, timeout) is transient', () => {
    const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' });
    expect(twilioNetworkFailure(timeout).kind).toBe('transient');
    expect(twilioNetworkFailure(timeout).message).toContain('timed out');
    expect(twilioNetworkFailure(new TypeError('fetch failed')).kind).toBe('transient');
  });

  it('failure messages name no number and no code', () => {
    const failure = failureOf({
      status: 400,
      body: { code: 21211, message: "The 'To' number +15550001111 is not valid" },
    });
    expect(failure.message).not.toContain('+1555');
  });
});

describe('Twilio failures that may have sent', () => {
  it('a refused connection sent nothing', () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: { code: 'ECONNREFUSED' },
    });
    expect(twilioNetworkFailure(refused).maybeSent).toBe(false);
  });

  it('a timeout or a lost answer may have sent', () => {
    const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' });
    const reset = Object.assign(new TypeError('fetch failed'), {
      cause: { code: 'UND_ERR_SOCKET' },
    });
    expect(twilioNetworkFailure(timeout).maybeSent).toBe(true);
    expect(twilioNetworkFailure(reset).maybeSent).toBe(true);
    expect(failureOf({ status: 201, body: null }).maybeSent).toBe(true);
  });

  it('error answers sent nothing', () => {
    expect(failureOf({ status: 500, body: null }).maybeSent).toBe(false);
    expect(failureOf({ status: 429, body: null }).maybeSent).toBe(false);
  });
});
