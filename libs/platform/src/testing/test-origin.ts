import { RequestOrigin } from '../domain/request-origin';

/** Where a unit test's request comes from, unless `fields` say otherwise. */
export function testOrigin(fields: Partial<RequestOrigin> = {}): RequestOrigin {
  return { address: '203.0.113.9', userAgent: 'unit-test/1.0', ...fields };
}
