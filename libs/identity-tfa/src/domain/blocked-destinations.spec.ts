import { isBlockedDestination } from './blocked-destinations';
import { parsePhoneNumber } from './phone-number';

describe('blocked destinations', () => {
  const blocked = { blockedPrefixes: ['+882', '+4470'], blockedCountries: ['GB'] };

  it('blocks by E.164 prefix', () => {
    expect(isBlockedDestination(parsePhoneNumber('+8823456789012'), blocked)).toBe(true);
    expect(isBlockedDestination({ e164: '+447012345678', country: null }, blocked)).toBe(true);
  });

  it('blocks by region', () => {
    expect(isBlockedDestination(parsePhoneNumber('+442079460958'), blocked)).toBe(true);
  });

  it('lets other numbers through', () => {
    expect(isBlockedDestination(parsePhoneNumber('+14155552671'), blocked)).toBe(false);
    expect(
      isBlockedDestination(parsePhoneNumber('+442079460958'), {
        blockedPrefixes: [],
        blockedCountries: [],
      }),
    ).toBe(false);
  });
});
