import { Principal } from '@app/platform';
import { TfaError } from '../domain/errors';

/** 2FA is personal: a team-scoped credential may not touch it (spec Authentication 5). */
export function personalUserId(principal: Principal | undefined): number | undefined {
  if (principal && principal.teamId !== null)
    throw new TfaError(
      'team_user_forbidden',
      '2FA actions must be done in the personal context, not as a team.',
    );
  return principal?.userId;
}

export function requirePersonalUserId(principal: Principal | undefined): number {
  const userId = personalUserId(principal);
  if (userId === undefined) throw new TfaError('auth_missing', 'This action requires login.');
  return userId;
}
