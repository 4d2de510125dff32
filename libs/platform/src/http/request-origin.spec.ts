import type { Request } from 'express';
import { headerText, requestOrigin } from './request-origin';

describe('headerText', () => {
  it('reads UTF-8 bytes (which Node hands over as latin1 characters) as UTF-8', () => {
    const sent = Buffer.from('Navigateur Déjà Vu/1.0 😀', 'utf8').toString('latin1');
    expect(sent).toContain('Ã©');
    expect(headerText(sent)).toBe('Navigateur Déjà Vu/1.0 😀');
  });

  it('keeps ASCII, and bytes that are no UTF-8 (a real latin1 header), as they came', () => {
    expect(headerText('curl/8.0')).toBe('curl/8.0');
    expect(headerText('caf\u00e9 latin1')).toBe('caf\u00e9 latin1');
  });
});

describe('requestOrigin', () => {
  it('records the decoded user agent', () => {
    const request = {
      ip: '203.0.113.7',
      headers: { 'user-agent': Buffer.from('Évian/2', 'utf8').toString('latin1') },
    } as unknown as Request;
    expect(requestOrigin(request)).toEqual({ address: '203.0.113.7', userAgent: 'Évian/2' });
  });
});
