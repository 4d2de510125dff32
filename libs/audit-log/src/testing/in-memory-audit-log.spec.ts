import { auditLogRepositoryContract } from './audit-log-repository.contract';
import { InMemoryAuditLogRepository } from './in-memory-audit-log';

describe('InMemoryAuditLogRepository', () => {
  let n = 0;
  auditLogRepositoryContract(async () => ({
    entries: new InMemoryAuditLogRepository(),
    newUser: async () => (n += 1),
    teamId: 970_301,
  }));
});
