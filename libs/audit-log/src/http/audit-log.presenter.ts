import { AuditEntry } from '../domain/audit-entry';
import { AuditLogEntryDto } from './audit-log.response.dto';

export function presentAuditEntry(entry: AuditEntry): AuditLogEntryDto {
  return {
    id: entry.id,
    created_at: Math.floor(entry.occurredAt.getTime() / 1000),
    ip_address: entry.address,
    api_key_id: entry.credentialKind === 'api_key' ? entry.credentialId : null,
    session_id: entry.credentialKind === 'session' ? entry.credentialId : null,
    method: entry.method,
    api_route: entry.route,
    route_name: entry.routeName,
    args: entry.args,
  };
}
