import { SecretKeeper } from '@app/platform';
import { BillingError } from '../domain/errors';
import { testSecretKeeper } from '@app/platform/testing';
import { ChargeFilter } from '../domain/charge-report';
import { PageCursorCodec, walkDigest } from './page-cursor.service';

const filter: ChargeFilter = {
  gte: 0,
  lte: 86_400,
  categories: null,
  format: 'table',
  latestFirst: true,
};
const cursor = {
  after: { value: 1_767_225_600, source: 'instance-42' },
  snapshot: '1000:1004:1001,1003',
  total: 321,
};

describe('PageCursorCodec', () => {
  const codec = new PageCursorCodec(testSecretKeeper());

  it('round-trips the sort key and snapshot for the same caller and filter', () => {
    const token = codec.encode(7, filter, cursor);
    expect(codec.decode(7, filter, token)).toEqual(cursor);
  });

  it('is opaque and signed: a changed payload or signature is rejected', () => {
    const token = codec.encode(7, filter, cursor);
    const [body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...payload, v: 1 })).toString('base64url')}.${mac}`;
    for (const bad of [forged, `${body}.${mac.slice(1)}`, 'x', '', `${body}.${mac}.x`]) {
      expect(() => codec.decode(7, filter, bad)).toThrow(
        expect.objectContaining({ code: 'invalid_token', message: 'Invalid pagination token' }),
      );
    }
  });

  it('rejects a token of another caller, filter, format or order', () => {
    const token = codec.encode(7, filter, cursor);
    const others: Array<[number, ChargeFilter]> = [
      [8, filter],
      [7, { ...filter, lte: 2 * 86_400 }],
      [7, { ...filter, categories: ['volume'] }],
      [7, { ...filter, format: 'tree' }],
      [7, { ...filter, latestFirst: false }],
    ];
    for (const [userId, other] of others) {
      expect(() => codec.decode(userId, other, token)).toThrow(BillingError);
    }
  });

  it('rejects a token signed with another key', () => {
    const Keeper = testSecretKeeper().constructor as new (
      master: Buffer,
      keys: Array<{ version: number; key: Buffer }>,
    ) => SecretKeeper;
    const foreign = new PageCursorCodec(
      new Keeper(Buffer.from('another-master-key-another-master-key'), [
        { version: 1, key: Buffer.alloc(32, 2) },
      ]),
    );
    expect(() => codec.decode(7, filter, foreign.encode(7, filter, cursor))).toThrow(BillingError);
  });

  it('digests the walk, not the page size', () => {
    expect(walkDigest(7, filter)).toBe(walkDigest(7, { ...filter }));
    expect(walkDigest(7, filter)).not.toBe(walkDigest(7, { ...filter, gte: 1 }));
  });
});
