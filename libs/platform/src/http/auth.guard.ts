import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CredentialVerifier } from '../application/ports/credential-verifier.port';
import { PlatformError } from '../domain/domain-error';
import { bearerToken } from './bearer-token';
import { annotateRequestSpan } from './request-span';
import { AUTH_POLICY, AuthenticatedRequest, AuthPolicy } from './route-policy.decorators';

/** Bearer everywhere unless a route says otherwise (`@Public()`, `@SecretOrBearer()`). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: CredentialVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy =
      this.reflector.getAllAndOverride<AuthPolicy>(AUTH_POLICY, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'bearer';
    if (policy === 'public') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (header === undefined) {
      if (policy === 'secret-or-bearer') {
        const secret = (request.body as Record<string, unknown> | undefined)?.secret;
        if (typeof secret === 'string' && secret.length > 0) return true;
        throw new PlatformError(
          'missing_auth_value',
          'Either a tfa_secret or a Bearer token is required.',
        );
      }
      throw new PlatformError('auth_missing', 'This action requires login.');
    }
    const token = bearerToken(header);
    if (!token) throw new PlatformError('auth_invalid_key', 'Invalid user key');
    request.principal = await this.verifier.verify(token);
    // The user id, never the key: what an operator looks a request up by.
    annotateRequestSpan(request, { 'user.id': String(request.principal.userId) });
    return true;
  }
}
