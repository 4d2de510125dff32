import { Injectable } from '@nestjs/common';
import { KeysetCursor, Principal, SecretKeeper } from '@app/platform';
import { AuditEntry } from '../domain/audit-entry';
import { AUDIT_LOG_MESSAGES, AuditLogError } from '../domain/errors';
import { AuditLogRepository } from './ports/audit-log.repository.port';

/** The SecretKeeper purpose of the next token: a token of another kind never verifies here. */
const CURSOR_PURPOSE = 'audit-log-cursor';

export interface AuditLogPage {
  entries: AuditEntry[];
  /** Where the next page starts; null on the last page. */
  nextToken: string | null;
}

/**
 * GET /api/v0/audit_logs/: the caller's entries in the caller's context, newest first,
 * keyset pages by id behind a token signed with the platform's HMAC key and bound to the
 * caller (like the security events' after_token).
 */
@Injectable()
export class ListAuditLogsUseCase {
  private readonly cursor: KeysetCursor;

  constructor(
    private readonly entries: AuditLogRepository,
    secrets: SecretKeeper,
  ) {
    this.cursor = new KeysetCursor(secrets, CURSOR_PURPOSE);
  }

  async execute(query: {
    principal: Principal;
    limit: number;
    afterToken: string | null;
  }): Promise<AuditLogPage> {
    const { userId, teamId } = query.principal;
    const beforeId = query.afterToken === null ? null : this.decode(userId, query.afterToken);
    const rows = await this.entries.listPage(userId, teamId, query.limit + 1, beforeId);
    const entries = rows.slice(0, query.limit);
    return {
      entries,
      nextToken:
        rows.length > query.limit ? this.cursor.next(userId, entries[entries.length - 1].id) : null,
    };
  }

  private decode(userId: number, token: string): number {
    const after = this.cursor.after(userId, token);
    if (after === null) throw new AuditLogError('invalid_token', AUDIT_LOG_MESSAGES.invalidToken);
    return after;
  }
}
