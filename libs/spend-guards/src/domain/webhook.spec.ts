import {
  isPublicAddress,
  isWebhookIdShape,
  webhookDescriptionProblem,
  webhookEventsProblem,
  webhookSecret,
  webhookUrlProblem,
} from './webhook';

describe('webhookUrlProblem', () => {
  it('accepts https anywhere, and http outside production (loopback included)', () => {
    expect(webhookUrlProblem('https://hooks.example.com/in?x=1', true)).toBeNull();
    expect(webhookUrlProblem('https://hooks.example.com/in', false)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:8080/in', false)).toBeNull();
    expect(webhookUrlProblem('http://localhost/in', false)).toBeNull();
    expect(webhookUrlProblem(`https://a.example/${'x'.repeat(2048 - 18)}`, true)).toBeNull();
  });

  it('refuses http in production', () => {
    expect(webhookUrlProblem('http://hooks.example.com/in', true)).toBe('url must use https');
  });

  it('refuses credentials, a fragment, another scheme, a relative or an overlong URL', () => {
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', false)).toBe(
      'url must not contain credentials',
    );
    expect(webhookUrlProblem('https://user@hooks.example.com/', false)).toBe(
      'url must not contain credentials',
    );
    expect(webhookUrlProblem('https://hooks.example.com/in#part', false)).toBe(
      'url must not contain a fragment',
    );
    expect(webhookUrlProblem('https://hooks.example.com/in#', false)).toBe(
      'url must not contain a fragment',
    );
    expect(webhookUrlProblem('ftp://hooks.example.com/', false)).toBe(
      'url must be an absolute http or https URL',
    );
    expect(webhookUrlProblem('/relative', false)).toBe('url must be an absolute http or https URL');
    expect(webhookUrlProblem('', false)).toBe('url must not be empty');
    expect(webhookUrlProblem('https://h.example/ x', false)).toBe(
      'url must not contain spaces or control characters',
    );
    expect(webhookUrlProblem(`https://a.example/${'x'.repeat(2048)}`, false)).toBe(
      'url must be at most 2048 characters',
    );
  });

  it('refuses loopback, private and link-local hosts in production only', () => {
    const local = 'url must name a public host (not a loopback, private or link-local address)';
    for (const url of [
      'https://127.0.0.1/',
      'https://10.1.2.3/',
      'https://192.168.0.10:8443/',
      'https://172.16.0.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost/',
      'https://api.localhost/',
      'https://db.internal/',
      'https://intranet/',
      'https://0.0.0.0/',
    ]) {
      expect([url, webhookUrlProblem(url, true)]).toEqual([url, local]);
      expect([url, webhookUrlProblem(url.replace('https', 'http'), false)]).toEqual([url, null]);
    }
    expect(webhookUrlProblem('https://93.184.216.34/', true)).toBeNull();
  });
});

describe('isPublicAddress', () => {
  it('is true for public unicast addresses only', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1::1')).toBe(true);
    expect(isPublicAddress('127.0.0.1')).toBe(false);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
    expect(isPublicAddress('not an address')).toBe(false);
  });
});

describe('webhookEventsProblem', () => {
  it('accepts known types, each once', () => {
    expect(webhookEventsProblem(['budget.threshold_crossed'])).toBeNull();
    expect(webhookEventsProblem(['webhook.test', 'budget.threshold_crossed'])).toBeNull();
  });

  it('names the first rule the list breaks', () => {
    expect(webhookEventsProblem([])).toBe('events must name at least one event type');
    expect(webhookEventsProblem(['budget.exceeded'])).toBe(
      'events: unknown event type "budget.exceeded" (known: budget.threshold_crossed, webhook.test)',
    );
    expect(webhookEventsProblem(['webhook.test', 'webhook.test'])).toBe(
      'events must not repeat an event type',
    );
  });
});

describe('webhookDescriptionProblem', () => {
  it('accepts up to 200 printable characters', () => {
    expect(webhookDescriptionProblem('')).toBeNull();
    expect(webhookDescriptionProblem('x'.repeat(200))).toBeNull();
    expect(webhookDescriptionProblem('x'.repeat(201))).toBe(
      'description must be at most 200 characters',
    );
    expect(webhookDescriptionProblem('a\nb')).toBe(
      'description must not contain control characters',
    );
  });
});

describe('webhook identities', () => {
  it('makes secrets of 32 bytes in base64url behind whsec_, and ids of a known shape', () => {
    expect(webhookSecret(Buffer.alloc(32, 0xff))).toBe(`whsec_${'_'.repeat(42)}8`);
    expect(isWebhookIdShape('wh_abc123')).toBe(true);
    expect(isWebhookIdShape('wh_../x')).toBe(false);
    expect(isWebhookIdShape('1')).toBe(false);
  });
});
