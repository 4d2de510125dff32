import { Injectable } from '@nestjs/common';
import { Clock, SecretKeeper } from '@app/platform';
import { TeamStore } from '../ports/team-store.port';

export const INVITATION_TOKEN_PURPOSE = 'team-invitation';

/** What an invitation's mail says: the only place the token leaves the database. */
export interface TeamInvitationLetter {
  email: string;
  teamName: string;
  roleName: string;
  token: string;
  expiresAt: Date;
}

/** The worker's read of a pending invitation, its token decrypted (docs/teams.md "Invitations"). */
@Injectable()
export class TeamInvitationLetters {
  constructor(
    private readonly teams: TeamStore,
    private readonly secrets: SecretKeeper,
    private readonly clock: Clock,
  ) {}

  /** null when it ended (accepted, declined, revoked, replaced) or expired: nothing to mail. */
  async letter(invitationId: number): Promise<TeamInvitationLetter | null> {
    const found = await this.teams.letterOf(invitationId, this.clock.now());
    if (!found) return null;
    const token = this.secrets.decrypt(
      found.tokenCiphertext,
      `${INVITATION_TOKEN_PURPOSE}:${invitationId}`,
    );
    if (token === null) return null;
    const { invitation } = found;
    return {
      email: invitation.email,
      teamName: invitation.teamName,
      roleName: invitation.roleName,
      token,
      expiresAt: invitation.expiresAt,
    };
  }
}
