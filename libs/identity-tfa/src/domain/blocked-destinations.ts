import { PhoneNumber } from './phone-number';

/**
 * Premium-rate and international-network ranges are where SMS pumping pays; operators
 * list them (and whole regions they do not serve) in config. True when a number falls
 * in one.
 */
export function isBlockedDestination(
  phone: PhoneNumber,
  blocked: { blockedPrefixes: string[]; blockedCountries: string[] },
): boolean {
  if (blocked.blockedPrefixes.some((prefix) => phone.e164.startsWith(prefix))) return true;
  return phone.country !== null && blocked.blockedCountries.includes(phone.country);
}
