import { createHmac } from 'node:crypto';
import {
  attemptError,
  attemptSucceeded,
  verifyWebhookSignature,
  webhookBody,
  webhookHeaders,
  webhookSignature,
} from './webhook-delivery';

describe('webhook signing', () => {
  const secret = 'whsec_test';
  const body = '{"id":"evt_1","type":"webhook.test","created_at":1767225600,"data":{}}';

  it('signs "<timestamp>.<raw body>" with HMAC-SHA256 of the secret, hex, behind v1=', () => {
    const expected = createHmac('sha256', secret).update(`1767225600.${body}`).digest('hex');
    expect(webhookSignature(secret, 1767225600, body)).toBe(`v1=${expected}`);
  });

  it('sends the delivery id, the type, the timestamp and the signature as headers', () => {
    const headers = webhookHeaders(
      'd-1',
      { eventId: 'evt_1', eventType: 'webhook.test', body },
      secret,
      1767225600,
    );
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'gpumkt-webhooks/1',
      'Gpumkt-Webhook-Id': 'd-1',
      'Gpumkt-Webhook-Event': 'webhook.test',
      'Gpumkt-Webhook-Timestamp': '1767225600',
      'Gpumkt-Webhook-Signature': webhookSignature(secret, 1767225600, body),
    });
  });

  it('verifies a signature within the replay window, and nothing else', () => {
    const signature = webhookSignature(secret, 1767225600, body);
    const check = (fields: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({
        secret,
        timestamp: '1767225600',
        signature,
        rawBody: body,
        nowSeconds: 1767225600 + 299,
        ...fields,
      });
    expect(check({})).toBe('valid');
    expect(check({ secret: 'whsec_other' })).toBe('bad_signature');
    expect(check({ rawBody: `${body} ` })).toBe('bad_signature');
    expect(check({ signature: signature.slice(0, -1) })).toBe('bad_signature');
    expect(check({ signature: undefined })).toBe('bad_signature');
    expect(check({ nowSeconds: 1767225600 + 301 })).toBe('stale_timestamp');
    expect(check({ timestamp: '1767225600.5' })).toBe('stale_timestamp');
    expect(check({ timestamp: undefined })).toBe('stale_timestamp');
  });
});

describe('webhookBody', () => {
  it('is {id, type, created_at (epoch seconds), data}', () => {
    expect(
      JSON.parse(
        webhookBody({
          id: 'evt_1',
          type: 'budget.threshold_crossed',
          createdAt: new Date(1767225600_900),
          data: { budget_id: 3 },
        }),
      ),
    ).toEqual({
      id: 'evt_1',
      type: 'budget.threshold_crossed',
      created_at: 1767225600,
      data: { budget_id: 3 },
    });
  });
});

describe('attempt outcomes', () => {
  it('counts any 2xx as success; says the status or the error otherwise', () => {
    expect(attemptSucceeded({ statusCode: 200, error: null })).toBe(true);
    expect(attemptSucceeded({ statusCode: 299, error: null })).toBe(true);
    expect(attemptSucceeded({ statusCode: 301, error: null })).toBe(false);
    expect(attemptSucceeded({ statusCode: null, error: 'connection refused' })).toBe(false);
    expect(attemptError({ statusCode: 500, error: null })).toBe('HTTP 500');
    expect(attemptError({ statusCode: null, error: 'timed out after 100 ms' })).toBe(
      'timed out after 100 ms',
    );
  });
});
