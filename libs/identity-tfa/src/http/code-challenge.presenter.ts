import { StartAuthorizationResult } from '../application/methods/start-method-authorization.use-case';
import { TotpSetup } from '../application/methods/setup-totp.use-case';
import {
  AuthorizationChallengeResponseDto,
  AuthorizationGrantedResponseDto,
  CodeSentResponseDto,
  TotpSetupResponseDto,
} from './dto/code-challenge.response.dto';
import { MSG } from './tfa-messages';

/** POST sms (and the deprecated test). */
export function presentSmsSent(sent: { secret: string }): CodeSentResponseDto {
  return { success: true, msg: MSG.smsSent, secret: sent.secret };
}

/** POST sms/resend (and the deprecated resend). */
export function presentSmsResent(sent: { secret: string }): CodeSentResponseDto {
  return { success: true, msg: MSG.resent, secret: sent.secret };
}

/** POST email. */
export function presentEmailSent(sent: { secret: string }): CodeSentResponseDto {
  return { success: true, msg: MSG.emailSent, secret: sent.secret };
}

/** POST totp-setup. */
export function presentTotpSetup(setup: TotpSetup): TotpSetupResponseDto {
  return { success: true, secret: setup.secret, provisioning_uri: setup.provisioningUri };
}

/** POST authorize-new-method: the secret of the code's challenge, or the window already open. */
export function presentAuthorizationStarted(
  result: StartAuthorizationResult,
): AuthorizationChallengeResponseDto | AuthorizationGrantedResponseDto {
  return result.kind === 'granted'
    ? presentAuthorizationGranted()
    : { success: true, secret: result.secret };
}

/** The 30-minute add-method window is open. */
export function presentAuthorizationGranted(): AuthorizationGrantedResponseDto {
  return { success: true, msg: MSG.authorized };
}
