import { Injectable, Optional } from '@nestjs/common';
import { Clock, Principal, RequestOrigin, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { SessionAudit } from '../ports/session-audit.port';
import { SessionRepository } from '../ports/session.repository.port';
import { SessionRevocation } from '../ports/session-revocation.port';
import { TrustedDeviceRevocation } from '../ports/trusted-device-revocation.port';

export type SessionsToEnd = { id: number } | { allOthers: true };

export interface EndedSessions {
  sessions: number;
  devices: number;
}

/**
 * DELETE /api/v0/auth/sessions/: one session of the caller's (`{id}`, the current one
 * included), or "sign out everywhere" (`{all: true}`): every other session, and every
 * trusted device, so no browser gets back in with the password alone. API keys stay.
 * Each end holds at once on every replica (sessions are read on every request) and is
 * recorded as a security event, in the transaction that ends it.
 */
@Injectable()
export class EndSessionsUseCase {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly revocation: SessionRevocation,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Optional() private readonly audit?: SessionAudit,
    @Optional() private readonly devices?: TrustedDeviceRevocation,
  ) {}

  async execute(command: {
    principal: Principal;
    target: SessionsToEnd;
    origin: RequestOrigin;
  }): Promise<EndedSessions> {
    const { principal, target, origin } = command;
    const userId = principal.userId;
    return this.uow.run(async () => {
      let sessions: number;
      let devices = 0;
      if ('id' in target) {
        if (!(await this.sessions.endLive(userId, target.id, this.clock.now())))
          throw new AccountsError('not_found', `No session ${target.id}.`);
        sessions = 1;
      } else {
        // Devices first: their revocation takes the lock a device login takes, so no
        // device login can add a session after the sessions below are ended.
        devices = (await this.devices?.revokeAll(userId, 'user', origin)) ?? 0;
        const current = principal.credentialKind === 'session' ? principal.credentialId : undefined;
        sessions = await this.revocation.revokeOthers(userId, current);
      }
      if (sessions > 0)
        await this.audit?.sessionsEnded(userId, { count: sessions, cause: 'user', origin });
      return { sessions, devices };
    });
  }
}
