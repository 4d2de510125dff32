import { TfaError } from '../domain/errors';
import { User } from '@app/accounts';
import { TfaMethod } from '../domain/tfa-method';
import { tfaError } from './tfa-errors';

/**
 * Where an SMS code goes: the named method's phone, a given number, the primary SMS
 * method, or the phone on the user record. Logged out, only numbers on file qualify, so
 * a stolen password cannot be used to send codes to arbitrary numbers.
 */
export function resolveSmsDestination(
  user: User,
  methods: TfaMethod[],
  request: { phoneNumber?: string; tfaMethodId?: number; loggedOut: boolean },
): { destination: string; methodId: number | null } {
  if (request.tfaMethodId !== undefined) {
    const method = methods.find((m) => m.id === request.tfaMethodId);
    if (!method) throw new TfaError('not_found', `No 2FA method ${request.tfaMethodId}.`);
    if (method.type !== 'sms' || !method.phoneNumber)
      throw tfaError('invalid_tfa_method', `Method ${method.id} is not an SMS method.`);
    if (request.phoneNumber !== undefined && request.phoneNumber !== method.phoneNumber)
      throw tfaError('phone_number_mismatch', 'The phone number differs from the method.');
    return { destination: method.phoneNumber, methodId: method.id };
  }
  const smsMethods = methods
    .filter((m) => m.type === 'sms' && m.phoneNumber)
    .sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.id - b.id);
  if (request.phoneNumber !== undefined) {
    const method = smsMethods.find((m) => m.phoneNumber === request.phoneNumber);
    if (method) return { destination: method.phoneNumber!, methodId: method.id };
    if (request.phoneNumber === user.phoneNumber)
      return { destination: user.phoneNumber, methodId: null };
    if (request.loggedOut)
      throw tfaError('phone_number_mismatch', 'The phone number is not one on this account.');
    return { destination: request.phoneNumber, methodId: null };
  }
  if (smsMethods[0]) return { destination: smsMethods[0].phoneNumber!, methodId: smsMethods[0].id };
  if (user.phoneNumber) return { destination: user.phoneNumber, methodId: null };
  throw tfaError('missing_phone_number', 'A phone_number is required: none is on the account.');
}
