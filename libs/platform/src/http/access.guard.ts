import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { CredentialUseRecorder } from '../application/ports/credential-use-recorder.port';
import { PreparedAuditEntry, RequestAuditor } from '../application/ports/request-auditor.port';
import { decideAccess } from '../domain/access/permissions';
import { PlatformError } from '../domain/domain-error';
import { OwedWrite, oweWrite } from '../infrastructure/request-scope';
import { ROUTE_ACCESS, RouteAccessMetadata } from './access.decorator';
import { AuthenticatedRequest } from './route-policy.decorators';

/** Every value a request carries under `name`: its path, body and query string alike. */
export function requestValues(request: AuthenticatedRequest, name: string): unknown[] {
  const values: unknown[] = [];
  const fromPath = (request.params as Record<string, unknown> | undefined)?.[name];
  if (fromPath !== undefined) values.push(fromPath);
  const body = request.body as unknown;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const fromBody = (body as Record<string, unknown>)[name];
    if (fromBody !== undefined) values.push(fromBody);
  }
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(fromQuery)) values.push(...fromQuery);
  else if (fromQuery !== undefined) values.push(fromQuery);
  return values;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The answer of a write waits until its audit entry is written: when no transaction of the
 * request paid it (a write that touched only Redis), it is written on its own as the answer
 * leaves; a refused request (4xx, 5xx) changed nothing and owes nothing.
 */
function answerOnceWritten(response: Response, owed: OwedWrite, alone: () => Promise<void>): void {
  const end = response.end.bind(response) as (...args: unknown[]) => Response;
  response.end = ((...args: unknown[]) => {
    response.end = end as Response['end'];
    if (owed.settled || response.statusCode >= 400) {
      owed.settled = true;
      return end(...args);
    }
    owed.settled = true;
    void alone().finally(() => end(...args));
    return response;
  }) as Response['end'];
}

/**
 * An export's first byte waits until its audit entry is written: whatever it streams, the
 * entry exists before any of it leaves. The first write is held (answered `false`, so a
 * stream piping into the response waits for 'drain'), or the end when there is no body. A
 * refused export (4xx, 5xx) is no export and leaves at once, unrecorded.
 */
function firstByteOnceWritten(response: Response, alone: () => Promise<void>): void {
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => Response;
  let written: Promise<void> | null = null;
  const restore = (): void => {
    response.write = write as Response['write'];
    response.end = end as Response['end'];
  };
  const recorded = (): Promise<void> => (written ??= alone());
  response.write = ((...args: unknown[]) => {
    restore();
    if (response.statusCode >= 400) return write(...args);
    void recorded().finally(() => {
      if (write(...args)) response.emit('drain');
    });
    return false;
  }) as Response['write'];
  response.end = ((...args: unknown[]) => {
    restore();
    if (response.statusCode >= 400 && written === null) return end(...args);
    void recorded().finally(() => end(...args));
    return response;
  }) as Response['end'];
}

/**
 * The one place permissions are enforced (docs/access.md), right after authentication:
 * the credential's ip_whitelist, then its permission document against the route's
 * category, name and parameters (path, body and query: a constraint holds for every value
 * of its parameter the request carries). Either refusal is 403 permission_denied naming
 * what is missing. A request allowed through is noted as the credential's last use, and a
 * write or an export gets its audit entry: an export's before its first byte, a write's in
 * the first transaction it commits (else as its answer leaves). Reads pay nothing more.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  /** Handlers' metadata, read once each: this runs on every request. */
  private readonly accessOf = new WeakMap<object, RouteAccessMetadata | null>();

  constructor(
    private readonly reflector: Reflector,
    @Optional() private readonly uses?: CredentialUseRecorder,
    @Optional() private readonly auditor?: RequestAuditor,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = request.principal;
    // Public routes, and secret-or-bearer routes called with a tfa_secret alone.
    if (!principal) return true;
    const access = this.routeAccess(context.getHandler());
    if (!access) return true;
    const address = request.ip ?? null;
    if (principal.ipAllowlist && !principal.ipAllowlist.allows(address)) {
      throw new PlatformError(
        'permission_denied',
        `Permission denied: this key may not be used from ${address ?? 'an unknown address'} (outside its ip_whitelist)`,
      );
    }
    const decision = decideAccess(principal.permissions, {
      category: access.category,
      route: access.route,
      values: (name) => requestValues(request, name),
    });
    if (!decision.allowed) {
      throw new PlatformError(
        'permission_denied',
        `Permission denied: this key lacks ${decision.missing}`,
      );
    }
    this.uses?.used(principal, address);
    const write = !READS.has(request.method);
    if (!this.auditor || (!write && !access.audited)) return true;
    const entry: PreparedAuditEntry = this.auditor.prepare({
      principal,
      address,
      method: request.method,
      access,
      params: request.params as Record<string, unknown>,
      query: request.query as Record<string, unknown>,
      body: request.body,
    });
    const response = context.switchToHttp().getResponse<Response>();
    if (!write) {
      firstByteOnceWritten(response, () => entry.alone());
      return true;
    }
    const owed = oweWrite(() => entry.inTransaction());
    if (owed) answerOnceWritten(response, owed, () => entry.alone());
    return true;
  }

  private routeAccess(handler: object): RouteAccessMetadata | null {
    let access = this.accessOf.get(handler);
    if (access === undefined) {
      access =
        this.reflector.get<RouteAccessMetadata | undefined>(ROUTE_ACCESS, handler as never) ?? null;
      this.accessOf.set(handler, access);
    }
    return access;
  }
}
