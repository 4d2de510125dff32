import { Injectable } from '@nestjs/common';
import {
  AccessCatalog,
  AuditedRequest,
  Clock,
  PreparedAuditEntry,
  RequestAuditor,
} from '@app/platform';
import { auditArgs, NewAuditEntry } from '../domain/audit-entry';
import { AuditTrail } from './audit-trail.service';
import { AuditLogRepository } from './ports/audit-log.repository.port';

/**
 * The platform's RequestAuditor (docs/access.md "Audit log"): the entry of a write or an
 * export, its arguments read and cleaned when the request arrives. In a transaction it is
 * one more INSERT of the caller's unit of work (it commits with the change); alone, it goes
 * through the AuditTrail's group commit, within its bounded wait.
 */
@Injectable()
export class AuditLogRecorder extends RequestAuditor {
  constructor(
    private readonly entries: AuditLogRepository,
    private readonly trail: AuditTrail,
    private readonly catalog: AccessCatalog,
    private readonly clock: Clock,
  ) {
    super();
  }

  prepare(request: AuditedRequest): PreparedAuditEntry {
    const { principal, access } = request;
    const entry = (): NewAuditEntry => ({
      userId: principal.userId,
      teamId: principal.teamId,
      credentialKind: principal.credentialKind,
      credentialId: principal.credentialId,
      address: request.address,
      method: request.method,
      route: this.catalog.entry(access.route)?.path ?? access.route,
      routeName: access.route,
      args,
      occurredAt: this.clock.now(),
    });
    const args = auditArgs(request.params, request.query, request.body);
    return {
      inTransaction: () => this.entries.append(entry()),
      alone: () => this.trail.append(entry()),
    };
  }
}
