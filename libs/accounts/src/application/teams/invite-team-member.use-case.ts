import { Injectable, Optional } from '@nestjs/common';
import { Clock, Principal, RandomSource, RequestOrigin, SecretKeeper, UnitOfWork } from '@app/platform';
import { AccountsError } from '../../domain/errors';
import { TEAM_POLICY } from '../../domain/team';
import { TeamAudit } from '../ports/team-audit.port';
import { TeamInvitationMail } from '../ports/team-invitation-mail.port';
import { TeamStore } from '../ports/team-store.port';
import { UserRepository } from '../ports/user.repository.port';
import { TeamCallerResolver } from './team-caller.service';
import { INVITATION_TOKEN_PURPOSE } from './team-invitation-letters.service';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * POST /api/v0/team/invite/?email=E&role=R (`invite member`): a one-time token, valid 7
 * days, mailed to the address through the delivery queue. Inviting the address again
 * replaces its pending invitation (the old token stops working). The answer is the same
 * whether the address has an account or not; only the caller's own team is told whether
 * it is a member already.
 */
@Injectable()
export class InviteTeamMemberUseCase {
  constructor(
    private readonly teams: TeamStore,
    private readonly users: UserRepository,
    private readonly callers: TeamCallerResolver,
    private readonly secrets: SecretKeeper,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    @Optional() private readonly mail?: TeamInvitationMail,
    @Optional() private readonly audit?: TeamAudit,
  ) {}

  async execute(
    principal: Principal,
    input: { email: unknown; role: unknown },
    origin: RequestOrigin,
  ): Promise<{ invitationId: number; email: string; role: string; expiresAt: Date }> {
    if (typeof input.email !== 'string' || !EMAIL.test(input.email))
      throw new AccountsError('bad_request', 'Invalid request: email must be an email address');
    if (typeof input.role !== 'string' || input.role.length === 0)
      throw new AccountsError('bad_request', 'Invalid request: role must be the name of a role of the team');
    const email = input.email;
    const roleName = input.role;
    if (!this.mail)
      throw new AccountsError('service_unavailable', 'Invitations cannot be mailed from this process.');
    return this.uow.run(async () => {
      const caller = await this.callers.of(principal, { lock: true });
      const role = await this.teams.roleByName(caller.team.id, roleName);
      if (!role) throw new AccountsError('team_role_not_found', `No role ${roleName} in this team.`);
      this.callers.assertGrantable(caller, role);
      const existing = (await this.users.findByLogin(email))?.user;
      const sameAddress = existing?.email.toLowerCase() === email.toLowerCase();
      if (existing && sameAddress && (await this.teams.member(caller.team.id, existing.id)))
        throw new AccountsError('team_member_exists', `${email} is a member of this team already.`);
      const token = `gmi_${this.random.token(256)}`;
      const expiresAt = new Date(this.clock.nowMs() + TEAM_POLICY.invitationTtlMs);
      const invitationId = await this.teams.invite({
        teamId: caller.team.id,
        email,
        roleId: role.id,
        tokenHash: this.secrets.fingerprint(INVITATION_TOKEN_PURPOSE, token),
        tokenCiphertext: (id) => this.secrets.encrypt(token, `${INVITATION_TOKEN_PURPOSE}:${id}`),
        invitedBy: caller.userId,
        expiresAt,
      });
      this.mail?.queue(invitationId);
      await this.audit?.teamChanged({
        teamId: caller.team.id,
        actorUserId: caller.userId,
        subjectUserId: null,
        kind: 'team_member_invited',
        details: { team_name: caller.team.name, role: role.name, invitation_id: invitationId },
        origin,
      });
      return { invitationId, email, role: role.name, expiresAt };
    });
  }
}
