import { Injectable } from '@nestjs/common';
import { Clock, Principal } from '@app/platform';
import { SessionRecord } from '../../domain/session';
import { SessionRepository } from '../ports/session.repository.port';

export interface ListedSession extends SessionRecord {
  /** The session whose key made this request. */
  current: boolean;
}

/** GET /api/v0/auth/sessions/: the caller's live sessions, newest first. */
@Injectable()
export class ListSessionsUseCase {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal): Promise<ListedSession[]> {
    const sessions = await this.sessions.listLive(principal.userId, this.clock.now());
    return sessions.map((session) => ({
      ...session,
      current: principal.credentialKind === 'session' && principal.credentialId === session.id,
    }));
  }
}
