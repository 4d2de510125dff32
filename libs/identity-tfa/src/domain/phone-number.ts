import { TfaError } from './errors';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export interface PhoneNumber {
  /** Canonical E.164: `+` and digits only. */
  e164: string;
  /** ISO 3166-1 alpha-2 region, when the number identifies one. */
  country: string | null;
}

/** Separators people type between digit groups; everything else must be a digit. */
const SEPARATORS = /[\s().-]/g;

/**
 * Parses a phone number given in international form into canonical E.164. A number must
 * be possible for its country code (length per numbering plan); whether it is assigned and
 * reachable is the SMS provider's answer (Twilio 21211 -> twilio_error), since numbering
 * plans change faster than the bundled metadata.
 * @throws bad_request when the value is not an international phone number
 */
export function parsePhoneNumber(input: string, field = 'phone_number'): PhoneNumber {
  const compact = input.replace(SEPARATORS, '');
  const parsed = /^\+[1-9]\d{1,14}$/.test(compact)
    ? parsePhoneNumberFromString(compact)
    : undefined;
  if (!parsed || !parsed.isPossible())
    throw new TfaError(
      'bad_request',
      `${field} must be a phone number in international E.164 form, e.g. +14155552671.`,
    );
  return { e164: parsed.number, country: parsed.country ?? null };
}
