import { testSecretKeeper } from '../testing';
import { KeysetCursor } from './keyset-cursor.service';

describe('KeysetCursor', () => {
  const secrets = testSecretKeeper();
  const cursor = new KeysetCursor(secrets, 'test-walk');

  it('a token continues after its id, for its user only', () => {
    const token = cursor.next(7, 1_000_123);
    expect(cursor.after(7, token)).toBe(1_000_123);
    expect(cursor.after(8, token)).toBeNull();
    expect(new KeysetCursor(secrets, 'another-walk').after(7, token)).toBeNull();
  });

  it('anything else is no token', () => {
    for (const payload of [
      'not json',
      'null',
      '[]',
      '{"u":7}',
      '{"u":7,"i":0}',
      '{"u":7,"i":-3}',
      '{"u":7,"i":1.5}',
      '{"u":"7","i":12}',
      '{"u":7,"i":"12"}',
      `{"u":7,"i":${Number.MAX_SAFE_INTEGER + 2}}`,
    ])
      expect(cursor.after(7, secrets.sign('test-walk', payload))).toBeNull();
    expect(cursor.after(7, 'forged')).toBeNull();
    expect(cursor.after(7, 'x'.repeat(600))).toBeNull();
  });
});
