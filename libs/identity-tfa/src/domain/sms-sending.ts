import { DomainError } from '@app/platform';
import { isEmailVerified, type User } from '@app/accounts';
import { Challenge } from './challenge';
import { TFA_ERROR_MESSAGES } from './error-messages';
import { TfaError } from './errors';
import { TfaMethod } from './tfa-method';

/** Email verification is required to send codes; admins are exempt on the SMS routes. */
export function assertMaySendSms(user: User): void {
  if (!isEmailVerified(user) && !user.isAdmin)
    throw new TfaError('email_not_verified', TFA_ERROR_MESSAGES.emailNotVerified);
}

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
    if (!method)
      throw new TfaError('not_found', TFA_ERROR_MESSAGES.noSuchMethod(request.tfaMethodId));
    if (method.type !== 'sms' || !method.phoneNumber)
      throw new TfaError('invalid_tfa_method', `Method ${method.id} is not an SMS method.`);
    if (request.phoneNumber !== undefined && request.phoneNumber !== method.phoneNumber)
      throw new TfaError('phone_number_mismatch', 'The phone number differs from the method.');
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
      throw new TfaError('phone_number_mismatch', 'The phone number is not one on this account.');
    return { destination: request.phoneNumber, methodId: null };
  }
  if (smsMethods[0]) return { destination: smsMethods[0].phoneNumber!, methodId: smsMethods[0].id };
  if (user.phoneNumber) return { destination: user.phoneNumber, methodId: null };
  throw new TfaError('missing_phone_number', 'A phone_number is required: none is on the account.');
}

/** A resend goes where the challenge's code went, and nowhere else. */
export function assertSameSmsTarget(
  challenge: Pick<Challenge, 'channel' | 'destination' | 'methodId'>,
  request: { phoneNumber?: string; tfaMethodId?: number },
): void {
  if (challenge.channel !== 'sms' || !challenge.destination)
    throw new TfaError('no_challenge_found', 'This challenge has no SMS code to resend.');
  if (request.phoneNumber !== undefined && request.phoneNumber !== challenge.destination)
    throw new TfaError('phone_number_mismatch', 'The phone number differs from the challenge.');
  if (request.tfaMethodId !== undefined && request.tfaMethodId !== challenge.methodId)
    throw new TfaError('phone_number_mismatch', 'The method differs from the challenge.');
}

/** Refusals that come back from the provider: the message was queued, the send happened. */
const AFTER_QUEUEING: ReadonlySet<string> = new Set(['twilio_error', 'twilio_rate_limited']);

/** True for a provider's refusal of a send that was queued (it counts against the budgets). */
export function isProviderRefusal(error: unknown): boolean {
  return error instanceof DomainError && AFTER_QUEUEING.has(error.code);
}
