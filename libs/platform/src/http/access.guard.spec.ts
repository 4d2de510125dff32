import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CredentialUseRecorder } from '../application/ports/credential-use-recorder.port';
import {
  AuditedRequest,
  PreparedAuditEntry,
  RequestAuditor,
} from '../application/ports/request-auditor.port';
import { inRequestScope, takeOwedWrite } from '../infrastructure/request-scope';
import { IpAllowlist } from '../domain/access/ip-allowlist';
import { parsePermissionDocument } from '../domain/access/permission-document';
import { Permissions } from '../domain/access/permissions';
import { Principal } from '../domain/principal';
import { testPrincipal } from '../testing/test-principal';
import { Access } from './access.decorator';
import { AccessGuard, requestValues } from './access.guard';

class Handlers {
  @Access('misc', 'api.endptjobs.update')
  update(): void {}

  @Access('billing_read', 'api.charges.export', { audited: true })
  export(): void {}

  @Access('misc', 'api.endptjobs.list')
  list(): void {}

  open(): void {}
}

/** Records what it prepares and how each entry was written. */
class RecordingAuditor extends RequestAuditor {
  readonly written: string[] = [];
  readonly prepared: AuditedRequest[] = [];
  prepare(request: AuditedRequest): PreparedAuditEntry {
    this.prepared.push(request);
    return {
      inTransaction: async () => void this.written.push(`tx ${request.access.route}`),
      alone: async () => void this.written.push(`alone ${request.access.route}`),
    };
  }
}

class RecordingUses extends CredentialUseRecorder {
  readonly uses: Array<[number, string | null]> = [];
  used(principal: Principal, address: string | null): void {
    this.uses.push([principal.credentialId, address]);
  }
}

function permissions(document: unknown): Permissions {
  const parsed = parsePermissionDocument(document);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.permissions;
}

const principal = testPrincipal;

function context(
  handler: () => void,
  request: Record<string, unknown>,
  response: Record<string, unknown> = {},
): ExecutionContext {
  return {
    getHandler: () => handler,
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
}

describe('AccessGuard', () => {
  const uses = new RecordingUses();
  const guard = new AccessGuard(new Reflector(), uses);
  const update = Handlers.prototype.update;
  const only42 = permissions({
    api: { misc: { 'api.endptjobs.update': { constraints: { id: { eq: 42 } } } } },
  });

  const request = (
    who: Principal | undefined,
    id: string,
    body: unknown = {},
    ip = '203.0.113.5',
  ) => ({
    principal: who,
    params: { id },
    body,
    query: {},
    ip,
  });

  it('lets a full key through and notes its use with the client address', () => {
    expect(guard.canActivate(context(update, request(principal(), '43')))).toBe(true);
    expect(uses.uses.at(-1)).toEqual([10, '203.0.113.5']);
  });

  it('checks constraints on every value the request carries: path, body and query', () => {
    const scoped = principal({ permissions: only42 });
    expect(guard.canActivate(context(update, request(scoped, '42')))).toBe(true);
    expect(() => guard.canActivate(context(update, request(scoped, '43')))).toThrow(
      expect.objectContaining({
        code: 'permission_denied',
        message:
          'Permission denied: this key lacks misc: api.endptjobs.update with id eq 42 (this request has "43")',
      }),
    );
    // A body naming another id as well is refused: every value must hold.
    expect(() => guard.canActivate(context(update, request(scoped, '42', { id: 43 })))).toThrow(
      expect.objectContaining({ code: 'permission_denied' }),
    );
  });

  it('refuses a key outside its ip_whitelist before anything else', () => {
    const allowlist = IpAllowlist.parse(['10.0.0.0/8']);
    if (!allowlist.ok) throw new Error();
    const limited = principal({ ipAllowlist: allowlist.allowlist });
    expect(guard.canActivate(context(update, request(limited, '1', {}, '10.2.3.4')))).toBe(true);
    expect(() => guard.canActivate(context(update, request(limited, '1', {}, '11.2.3.4')))).toThrow(
      expect.objectContaining({
        code: 'permission_denied',
        message:
          'Permission denied: this key may not be used from 11.2.3.4 (outside its ip_whitelist)',
      }),
    );
  });

  it('leaves alone requests without a principal and handlers without a declaration', () => {
    expect(guard.canActivate(context(update, request(undefined, '43')))).toBe(true);
    const open = Handlers.prototype.open;
    expect(
      guard.canActivate(context(open, request(principal({ permissions: only42 }), '43'))),
    ).toBe(true);
  });

  it('requestValues: path, body and query values, a repeated query parameter each', () => {
    expect(
      requestValues(
        { params: { id: '1' }, body: { id: 2 }, query: { id: ['3', '4'] } } as never,
        'id',
      ),
    ).toEqual(['1', 2, '3', '4']);
    expect(requestValues({ params: {}, body: [], query: {} } as never, 'id')).toEqual([]);
  });

  describe('the audit log', () => {
    const auditor = new RecordingAuditor();
    const audited = new AccessGuard(new Reflector(), undefined, auditor);
    const ended: number[] = [];
    const response = (statusCode: number) => {
      const answer: Record<string, unknown> = { statusCode };
      answer.end = () => {
        ended.push(statusCode);
        return answer;
      };
      return answer;
    };
    const call = (handler: () => void, method: string, answer: Record<string, unknown>) =>
      new Promise<boolean>((resolve) =>
        inRequestScope(() => {
          const allowed = audited.canActivate(
            context(handler, { ...request(principal(), '7', { max_workers: 3 }), method }, answer),
          );
          void Promise.resolve(allowed).then(resolve);
        }),
      );

    beforeEach(() => {
      auditor.written.length = 0;
      auditor.prepared.length = 0;
      ended.length = 0;
    });

    it('a read records nothing', async () => {
      await call(Handlers.prototype.list, 'GET', response(200));
      expect(auditor.prepared).toEqual([]);
    });

    it('an export is written before its first byte, and not at all when it is refused', async () => {
      const sent: string[] = [];
      const streaming = (statusCode: number) => {
        const answer: Record<string, unknown> = { statusCode, emit: () => true };
        answer.write = (chunk: string) => {
          sent.push(`${auditor.written.length} ${chunk}`);
          return true;
        };
        answer.end = () => {
          ended.push(statusCode);
          return answer;
        };
        return answer;
      };
      const ok = streaming(200);
      expect(await call(Handlers.prototype.export, 'GET', ok)).toBe(true);
      expect(auditor.written).toEqual([]);
      expect((ok.write as (chunk: string) => boolean)('first')).toBe(false);
      (ok.end as () => void)();
      await new Promise((resolve) => setImmediate(resolve));
      // One entry, written before the first chunk left, and the end after it.
      expect(auditor.written).toEqual(['alone api.charges.export']);
      expect(sent).toEqual(['1 first']);
      expect(ended).toEqual([200]);
      const refused = streaming(400);
      await call(Handlers.prototype.export, 'GET', refused);
      (refused.end as () => void)();
      expect(auditor.written).toHaveLength(1);
      expect(ended).toEqual([200, 400]);
    });

    it('a write is owed to its first transaction; unpaid, it is written as a success answer leaves', async () => {
      // Paid by a transaction: the answer leaves at once.
      await new Promise<void>((resolve) =>
        inRequestScope(() => {
          const answer = response(200);
          audited.canActivate(
            context(
              Handlers.prototype.update,
              { ...request(principal(), '7'), method: 'PUT' },
              answer,
            ),
          );
          void takeOwedWrite()!
            .write()
            .then(() => {
              (answer.end as () => void)();
              resolve();
            });
        }),
      );
      expect(auditor.written).toEqual(['tx api.endptjobs.update']);
      expect(ended).toEqual([200]);
      // Unpaid: written alone, then the answer.
      const success = response(200);
      await call(Handlers.prototype.update, 'PUT', success);
      (success.end as () => void)();
      await new Promise((resolve) => setImmediate(resolve));
      expect(auditor.written).toEqual(['tx api.endptjobs.update', 'alone api.endptjobs.update']);
      expect(ended).toEqual([200, 200]);
      // A refusal owes nothing.
      const refusal = response(404);
      await call(Handlers.prototype.update, 'PUT', refusal);
      (refusal.end as () => void)();
      expect(auditor.written).toHaveLength(2);
      expect(ended).toEqual([200, 200, 404]);
      expect(auditor.prepared[0]).toMatchObject({
        method: 'PUT',
        address: '203.0.113.5',
        access: { category: 'misc', route: 'api.endptjobs.update' },
        params: { id: '7' },
      });
    });
  });
});
