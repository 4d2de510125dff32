import { Injectable, Optional } from '@nestjs/common';
import { FULL_PERMISSIONS, intersectPermissions, Permissions, Principal } from '@app/platform';
import { Grant } from '../../domain/api-key';
import { AccountsError } from '../../domain/errors';
import { rolePermissions } from '../../domain/team';
import { ApiKeyRepository } from '../ports/api-key.repository.port';
import { TeamStore } from '../ports/team-store.port';

/**
 * What the caller's credential may hand on to a key it makes (or take from one it
 * deletes), read from its stored row: a session counts as its user's full key (it was
 * opened by a password or 2FA login); an API key, as it is now. In a team's context, what
 * the member's role allows too (docs/teams.md "Keys and contexts"): the effective grant,
 * role intersected with key, read as it is now, so a full team key of a member whose
 * role is narrower makes no key beyond that role.
 */
@Injectable()
export class CallerGrant {
  constructor(
    private readonly apiKeys: ApiKeyRepository,
    @Optional() private readonly teams?: TeamStore,
  ) {}

  async of(principal: Principal): Promise<Grant> {
    const own = await this.credentialGrant(principal);
    if (principal.teamId === null) return own;
    const role = await this.role(principal.teamId, principal.userId);
    return { ...own, permissions: intersectPermissions(own.permissions, role) };
  }

  private async credentialGrant(principal: Principal): Promise<Grant> {
    if (principal.credentialKind === 'session')
      return { permissions: FULL_PERMISSIONS, ipAllowlist: null, expiresAt: null };
    const key = await this.apiKeys.findLive(
      principal.userId,
      principal.teamId,
      principal.credentialId,
    );
    // Deleted since the request was authenticated.
    if (!key) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    return { permissions: key.permissions, ipAllowlist: key.ipAllowlist, expiresAt: key.expiresAt };
  }

  /** The caller's role in the team of their credential; no longer a member: their key is invalid. */
  private async role(teamId: number, userId: number): Promise<Permissions> {
    if (!this.teams) throw new Error('CallerGrant: a team credential needs the TeamStore');
    const member = await this.teams.member(teamId, userId);
    if (!member) throw new AccountsError('auth_invalid_key', 'Invalid user key');
    // A member without a role (a fixture's) acts with their key alone, as authentication reads it.
    const role = member.roleId === null ? null : await this.teams.roleById(teamId, member.roleId);
    return rolePermissions(role);
  }
}
