import { InlineUnitOfWork, ManualClock, testSecretKeeper } from '@app/platform/testing';
import { AuditTrail } from '../application/audit-trail.service';
import { ListAuditLogsUseCase } from '../application/list-audit-logs.use-case';
import { PruneAuditLogsUseCase } from '../application/prune-audit-logs.use-case';
import { NewAuditEntry } from '../domain/audit-entry';
import { AuditLogSettings } from '../domain/audit-log-settings';
import { InMemoryAuditLogRepository } from './in-memory-audit-log';

/** An update of an endpoint group by user 1's API key 7 at 2026-01-01 12:00, unless `fields` say otherwise. */
export function testAuditEntry(fields: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    userId: 1,
    teamId: null,
    credentialKind: 'api_key',
    credentialId: 7,
    address: '203.0.113.7',
    method: 'PUT',
    route: '/api/v0/endptjobs/{id}/',
    routeName: 'api.endptjobs.update',
    args: {},
    occurredAt: new Date(Date.UTC(2026, 0, 1, 12)),
    ...fields,
  };
}

/** A 400-day retention and a 10 s wait for an append, unless `fields` say otherwise. */
export function testAuditLogSettings(fields: Partial<AuditLogSettings> = {}): AuditLogSettings {
  return Object.assign(
    new AuditLogSettings(),
    { retentionDays: 400, appendWaitMs: 10_000 },
    fields,
  );
}

/** The audit-log fakes wired together, as the module wires the real adapters. */
export function auditLogKit({
  clock = new ManualClock(Date.UTC(2026, 0, 31)),
  settings = testAuditLogSettings(),
}: { clock?: ManualClock; settings?: AuditLogSettings } = {}) {
  const repository = new InMemoryAuditLogRepository();
  const uow = new InlineUnitOfWork();
  return {
    clock,
    settings,
    repository,
    uow,
    trail: new AuditTrail(repository, settings),
    list: new ListAuditLogsUseCase(repository, testSecretKeeper()),
    prune: new PruneAuditLogsUseCase(repository, uow, settings, clock),
  };
}

export type AuditLogKit = ReturnType<typeof auditLogKit>;
