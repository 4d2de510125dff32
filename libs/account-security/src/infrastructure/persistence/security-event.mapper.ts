import {
  SecurityEvent,
  SecurityEventDetails,
  SecurityEventKind,
  SecurityEventMethod,
} from '../../domain/security-event';

export interface SecurityEventRow {
  id: string;
  user_id: number;
  kind: SecurityEventKind;
  method: SecurityEventMethod | null;
  details: SecurityEventDetails;
  client_address: string | null;
  user_agent: string | null;
  created_at: Date;
}

/** The columns a SecurityEventRow is read from. */
export const SECURITY_EVENT_COLUMNS =
  'id, user_id, kind, method, details, client_address, user_agent, created_at';

export function toSecurityEvent(row: SecurityEventRow): SecurityEvent {
  return {
    id: Number(row.id),
    userId: row.user_id,
    kind: row.kind,
    method: row.method,
    details: row.details,
    origin: { address: row.client_address, userAgent: row.user_agent },
    occurredAt: row.created_at,
  };
}
