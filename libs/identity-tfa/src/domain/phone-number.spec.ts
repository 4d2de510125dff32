import { DomainError } from '@app/platform';
import { parsePhoneNumber } from './phone-number';

describe('phone number parsing', () => {
  it('returns canonical E.164 and the region', () => {
    expect(parsePhoneNumber('+14155552671')).toEqual({ e164: '+14155552671', country: 'US' });
    expect(parsePhoneNumber('+44 20 7946 0958')).toEqual({ e164: '+442079460958', country: 'GB' });
    expect(parsePhoneNumber('+1 (415) 555-2671').e164).toBe('+14155552671');
  });

  it('accepts possible numbers that are not (yet) assigned: the provider decides those', () => {
    expect(parsePhoneNumber('+15550001234').e164).toBe('+15550001234');
  });

  it.each(['14155552671', '+', '+0123456', 'call me', '+1415555267a', '+123', '+1234567890123456'])(
    '%s is bad_request',
    (input) => {
      let thrown: unknown;
      try {
        parsePhoneNumber(input);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect((thrown as DomainError).code).toBe('bad_request');
      expect((thrown as DomainError).message).toContain('phone_number');
    },
  );
});
