import { Injectable } from '@nestjs/common';
import { Clock, Principal, SecretKeeper } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { TeamInvitation, TeamStore } from '../ports/team-store.port';
import { UserRepository } from '../ports/user.repository.port';
import { INVITATION_TOKEN_PURPOSE } from './team-invitation-letters.service';

const NOT_YOURS =
  'No pending invitation to your address matches this token (it may have expired, been used, revoked or replaced).';

/**
 * The pending invitation a token opens, for its invitee only: the caller's own personal
 * credential, and the account's address the one invited. Every other case answers the
 * same 404, so a token tells nothing to anyone else. The invitation is locked until the
 * transaction ends: a token is used once.
 */
@Injectable()
export class TeamInvitee {
  constructor(
    private readonly teams: TeamStore,
    private readonly users: UserRepository,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  async invitation(principal: Principal, token: unknown): Promise<TeamInvitation> {
    if (principal.teamId !== null)
      throw new AccountsError(
        'personal_context_required',
        'An invitation is answered from your personal context: use a personal key.',
      );
    if (typeof token !== 'string' || token.length === 0 || token.length > 200)
      throw new AccountsError('bad_request', 'Invalid request: token must be the token of the invitation mail');
    const invitation = await this.teams.invitationByToken(
      this.secrets.fingerprints(INVITATION_TOKEN_PURPOSE, token),
      this.clock.now(),
    );
    const user = await this.users.findById(principal.userId);
    if (!invitation || !user || user.email.toLowerCase() !== invitation.email.toLowerCase())
      throw new AccountsError('team_invitation_not_found', NOT_YOURS);
    return invitation;
  }
}
