import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest, Principal } from '@app/platform';
import { AccountSecurityError } from '../domain/errors';

/**
 * Account security is personal, as 2FA is: a team-scoped credential may not read or change
 * it, and is answered as the 2FA routes answer it.
 */
export function personalUserId(principal: Principal | undefined): number | undefined {
  if (principal && principal.teamId !== null)
    throw new AccountSecurityError(
      'team_user_forbidden',
      '2FA actions must be done in the personal context, not as a team.',
    );
  return principal?.userId;
}

export function requirePersonalUserId(principal: Principal | undefined): number {
  const userId = personalUserId(principal);
  if (userId === undefined)
    throw new AccountSecurityError('auth_missing', 'This action requires login.');
  return userId;
}

/**
 * Runs after authentication and before anything else of the route, so a team credential
 * gets team_user_forbidden on every account-security route.
 */
@Injectable()
export class PersonalContextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    personalUserId(context.switchToHttp().getRequest<AuthenticatedRequest>().principal);
    return true;
  }
}
