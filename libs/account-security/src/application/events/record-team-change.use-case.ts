import { Injectable } from '@nestjs/common';
import { TeamAudit, TeamChange } from '@app/accounts';
import { SecurityEventLog } from './security-event-log.service';

/**
 * Accounts' TeamAudit port: a membership, role or policy change of a team is a security
 * event (`team_changed`, the change and the team in its details) of the member it is
 * about, mailed to them, and of the member who made it, when another one (not mailed: the
 * actor knows). Changes about no one member (a role's permissions) are the actor's event.
 * The team's own history is the events whose details name it (docs/teams.md).
 */
@Injectable()
export class RecordTeamChangeUseCase extends TeamAudit {
  constructor(private readonly events: SecurityEventLog) {
    super();
  }

  async teamChanged(change: TeamChange): Promise<void> {
    const details = { change: change.kind, team_id: change.teamId, ...change.details };
    if (change.subjectUserId !== null)
      await this.events.record({
        userId: change.subjectUserId,
        kind: 'team_changed',
        method: null,
        details,
        origin: change.origin,
      });
    if (change.subjectUserId !== change.actorUserId)
      await this.events.record(
        {
          userId: change.actorUserId,
          kind: 'team_changed',
          method: null,
          details: { ...details, member_id: change.subjectUserId },
          origin: change.origin,
        },
        { notify: false },
      );
  }
}
