import { PasswordLoginResult } from '../application/credentials/password-login.use-case';
import { LegacySecondFactor } from '../application/ports/login-second-factor.port';
import {
  presentSecondFactorMethod,
  SecondFactorMethodRecord,
} from './second-factor-method.presenter';
import { presentUser } from './user.presenter';

/** A legacy account's SMS 2FA in the login's list: no method id behind it. */
export interface LegacySecondFactorRecord {
  id: null;
  method: 'sms';
  phone_number: string;
  legacy: true;
}

export type PasswordLoginResponse =
  | {
      success: true;
      tfa_required: true;
      tfa_secret: string;
      methods: Array<SecondFactorMethodRecord | LegacySecondFactorRecord>;
    }
  | {
      success: true;
      tfa_required: false;
      session_key: string;
      expires_at: number;
      user: ReturnType<typeof presentUser>;
    };

/** POST users/login/: the session, or the second step with the methods to choose from. */
export function presentPasswordLogin(result: PasswordLoginResult): PasswordLoginResponse {
  if (result.kind === 'second_factor')
    return {
      success: true,
      tfa_required: true,
      tfa_secret: result.tfaSecret,
      methods: result.methods.map((method) =>
        method.kind === 'legacy'
          ? presentLegacySecondFactor(method)
          : presentSecondFactorMethod(method),
      ),
    };
  return {
    success: true,
    tfa_required: false,
    session_key: result.sessionKey,
    expires_at: Math.floor(result.expiresAt.getTime() / 1000),
    user: presentUser(result.user),
  };
}

function presentLegacySecondFactor(method: LegacySecondFactor): LegacySecondFactorRecord {
  return { id: null, method: method.type, phone_number: method.maskedPhoneNumber, legacy: true };
}
