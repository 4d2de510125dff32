import { presentUser } from '@app/accounts';
import { CompletedLogin } from '../application/login/complete-login.use-case';

/** The user object of GET users/current/ plus the conditional fields of the 2FA login. */
export type TfaLoginResponse = ReturnType<typeof presentUser> & {
  success: true;
  session_key?: string;
  backup_codes_remaining?: number;
  legacy_tfa_user?: true;
};

/**
 * POST /tfa/. A Bearer caller (the command line) gets the session key in the body; logged
 * out it travels only in the cookie and header the controller sets.
 */
export function presentTfaLogin(login: CompletedLogin, bearer: boolean): TfaLoginResponse {
  return {
    success: true,
    ...presentUser(login.user),
    ...(bearer ? { session_key: login.sessionKey } : {}),
    ...(login.backupCodesRemaining !== undefined
      ? { backup_codes_remaining: login.backupCodesRemaining }
      : {}),
    ...(login.legacy ? { legacy_tfa_user: true as const } : {}),
  };
}
