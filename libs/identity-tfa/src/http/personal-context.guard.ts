import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthenticatedRequest } from '@app/platform';
import { personalUserId } from './tfa-caller';

/**
 * Runs after authentication and before body validation, so a team credential gets
 * team_user_forbidden on every 2FA route whatever its body.
 */
@Injectable()
export class PersonalContextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    personalUserId(context.switchToHttp().getRequest<AuthenticatedRequest>().principal);
    return true;
  }
}
