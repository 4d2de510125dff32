import { Injectable } from '@nestjs/common';
import { KeysetCursor, SecretKeeper } from '@app/platform';
import { ACCOUNT_SECURITY_ERROR_MESSAGES } from '../../domain/error-messages';
import { AccountSecurityError } from '../../domain/errors';
import { SecurityEvent } from '../../domain/security-event';
import { SecurityEventRepository } from '../ports/security-event.repository.port';
import { AccountLookup } from '../account-lookup.service';

/** The SecretKeeper purpose of next_token: a token of another kind never verifies here. */
const CURSOR_PURPOSE = 'tfa-events-cursor';

export interface ListSecurityEventsQuery {
  userId: number;
  /** Already clamped to the page sizes served. */
  limit: number;
  afterToken: string | null;
}

export interface SecurityEventPage {
  events: SecurityEvent[];
  /** Where the next page starts; null on the last page. */
  nextToken: string | null;
}

/**
 * GET tfa/events/: the caller's events newest first, keyset-paginated by id. next_token
 * is signed with the platform's HMAC key (SecretKeeper.sign, as the charges cursor) and
 * bound to the caller: another user's token, or an altered one, is invalid_token.
 */
@Injectable()
export class ListSecurityEventsUseCase {
  private readonly cursor: KeysetCursor;

  constructor(
    private readonly lookup: AccountLookup,
    private readonly events: SecurityEventRepository,
    secrets: SecretKeeper,
  ) {
    this.cursor = new KeysetCursor(secrets, CURSOR_PURPOSE);
  }

  async execute(query: ListSecurityEventsQuery): Promise<SecurityEventPage> {
    const user = await this.lookup.user(query.userId);
    const beforeId = query.afterToken === null ? null : this.decode(user.id, query.afterToken);
    // One row more than the page tells whether another page follows.
    const rows = await this.events.listPage(user.id, query.limit + 1, beforeId);
    const events = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    return {
      events,
      nextToken: more ? this.cursor.next(user.id, events[events.length - 1].id) : null,
    };
  }

  private decode(userId: number, token: string): number {
    const after = this.cursor.after(userId, token);
    if (after === null)
      throw new AccountSecurityError('invalid_token', ACCOUNT_SECURITY_ERROR_MESSAGES.invalidToken);
    return after;
  }
}
