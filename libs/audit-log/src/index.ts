export { AuditLogModule } from './audit-log.module';
export { AuditTrail } from './application/audit-trail.service';
