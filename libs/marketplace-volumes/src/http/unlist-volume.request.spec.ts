import { thrownBy } from '@app/platform/testing';
import { LISTING_ID_MESSAGES, parseListingId } from './unlist-volume.request';

describe('parseListingId', () => {
  it('accepts a positive integer', () => {
    expect(parseListingId(42)).toBe(42);
  });

  it.each([undefined, null])('reports %p as missing', (raw) => {
    const error = thrownBy(() => parseListingId(raw));
    expect(error.code).toBe('volume_id_missing');
    expect(error.message).toBe(LISTING_ID_MESSAGES.missing);
    expect(error.message).toBe('You must pass in `id` in the body of the request');
  });

  it.each([0, -1, 1.5, '42', true, {}, []])('refuses %p', (raw) => {
    const error = thrownBy(() => parseListingId(raw));
    expect(error.code).toBe('volume_id_invalid');
    expect(error.message).toBe('`id` must be a positive integer');
  });
});
