import { TeamStore } from '../application/ports/team-store.port';
import { DEFAULT_TEAM_ROLES, OWNER_ROLE } from '../domain/team';

/** What the contract runs against: a store, and the users and credentials around it. */
export interface TeamStoreSubject {
  store: TeamStore;
  /** A new user with this much credit (exact decimal text); its id and email. */
  user(credit?: string): Promise<{ id: number; email: string }>;
  /** A new API key of the user (its id): the main key or not, with a permission document. */
  apiKey(
    userId: number,
    options?: { main?: boolean; permissions?: object | null },
  ): Promise<number>;
  /** A credential as stored: its team, whether it is revoked and the main key; null once gone. */
  credential(
    id: number,
  ): Promise<{ teamId: number | null; revoked: boolean; main: boolean } | null>;
  /** The user's credit, exact, with 4 decimals. */
  credit(userId: number): Promise<string>;
}

const DAY = 86_400_000;

/**
 * One suite, run by a unit spec on InMemoryTeamStore and by an int-spec on PostgresTeamStore,
 * so the fake the team use-case specs rely on answers as PostgreSQL does (docs/architecture.md
 * "Where do tests go?"): a team and its default roles, members and their roles, credit moved
 * exactly, a credential moved into the team, custom roles unique whatever their case, and
 * invitations (replaced, listed, opened by token, ended once, expired).
 */
export function teamStoreContract(setup: () => Promise<TeamStoreSubject>): void {
  let subject: TeamStoreSubject;
  let store: TeamStore;

  beforeAll(async () => {
    subject = await setup();
    store = subject.store;
  });

  async function newTeam(name = 'engines') {
    const owner = await subject.user('30');
    const created = await store.create(name, owner.id);
    return { owner, ...created };
  }

  it('creates a team with the default roles, its creator the owner', async () => {
    const { owner, team, roles } = await newTeam();
    expect(team).toEqual({
      id: expect.any(Number),
      name: 'engines',
      credit: '0.0000',
      requireTfa: false,
      createdAt: expect.any(Date),
    });
    expect(roles.map((role) => [role.name, role.isDefault, role.teamId])).toEqual(
      DEFAULT_TEAM_ROLES.map((role) => [role.name, true, team.id]),
    );
    expect(await store.roles(team.id)).toEqual(roles);
    expect(await store.find(team.id)).toEqual(team);
    expect(await store.lock(team.id)).toEqual(team);
    expect(await store.members(team.id)).toEqual([
      {
        userId: owner.id,
        email: owner.email,
        fullName: expect.any(String),
        username: null,
        roleId: roles[0].id,
        roleName: OWNER_ROLE,
        joinedAt: expect.any(Date),
      },
    ]);
    await store.setRequireTfa(team.id, true);
    expect((await store.find(team.id))?.requireTfa).toBe(true);
    expect(await store.find(999_999_999)).toBeNull();
  });

  it('moves credit exactly, and refuses more than the user has without moving any', async () => {
    const { owner, team } = await newTeam();
    expect(await store.transferCredit(owner.id, team.id, '12.3456')).toBe(true);
    expect(await subject.credit(owner.id)).toBe('17.6544');
    expect((await store.find(team.id))?.credit).toBe('12.3456');
    expect(await store.transferCredit(owner.id, team.id, '17.6545')).toBe(false);
    expect(await subject.credit(owner.id)).toBe('17.6544');
    expect(await store.transferCredit(owner.id, team.id, '17.6544')).toBe(true);
    expect(await subject.credit(owner.id)).toBe('0.0000');
    expect((await store.find(team.id))?.credit).toBe('30.0000');
  });

  it('moves a credential into the team, telling whether it was the main key and what it allowed', async () => {
    const { owner, team } = await newTeam();
    const main = await subject.apiKey(owner.id, { main: true });
    expect(await store.moveCredentialToTeam('api_key', main, team.id)).toEqual({
      wasMain: true,
      permissions: null,
      keyParams: null,
      expiresAt: null,
    });
    expect(await subject.credential(main)).toEqual({
      teamId: team.id,
      revoked: false,
      main: false,
    });
    const document = { api: { billing_read: {} } };
    const scoped = await subject.apiKey(owner.id, { permissions: document });
    expect(await store.moveCredentialToTeam('api_key', scoped, team.id)).toMatchObject({
      wasMain: false,
      permissions: document,
    });
  });

  it('adds members once, gives them roles, counts them, and removes them with their team keys', async () => {
    const { owner, team, roles } = await newTeam();
    const [ownerRole, manager, member] = roles;
    const grace = await subject.user();
    expect(await store.addMember(team.id, grace.id, member.id)).toBe(true);
    expect(await store.addMember(team.id, grace.id, manager.id)).toBe(false);
    expect(await store.member(team.id, grace.id)).toMatchObject({
      userId: grace.id,
      roleName: 'member',
    });
    await store.setMemberRole(team.id, grace.id, manager.id);
    expect(await store.member(team.id, grace.id)).toMatchObject({
      roleId: manager.id,
      roleName: 'manager',
    });
    expect((await store.members(team.id)).map((m) => m.userId)).toEqual([owner.id, grace.id]);
    expect(await store.countWithRole(team.id, ownerRole.id)).toBe(1);
    expect(await store.userIdsWithRole(team.id, manager.id)).toEqual([grace.id]);

    const teamKey = await subject.apiKey(grace.id);
    await store.moveCredentialToTeam('api_key', teamKey, team.id);
    const personal = await subject.apiKey(grace.id);
    expect(await store.removeMember(team.id, grace.id, new Date())).toBe(true);
    expect(await store.removeMember(team.id, grace.id, new Date())).toBe(false);
    expect(await store.member(team.id, grace.id)).toBeNull();
    expect(await subject.credential(teamKey)).toMatchObject({ revoked: true });
    expect(await subject.credential(personal)).toMatchObject({ revoked: false });
  });

  it('keeps role names unique whatever their case, and changes or deletes a custom role', async () => {
    const { team } = await newTeam();
    const other = await newTeam('others');
    // Written in another order, read back in the model's.
    const document = { api: { team_read: {}, billing_read: {} } };
    const reader = await store.insertRole(team.id, 'Billing-Reader', document);
    expect(reader).toEqual({
      id: expect.any(Number),
      teamId: team.id,
      name: 'Billing-Reader',
      permissions: { api: { billing_read: {}, team_read: {} } },
      isDefault: false,
    });
    expect(await store.insertRole(team.id, 'billing-reader', null)).toBeNull();
    expect(await store.insertRole(other.team.id, 'billing-reader', null)).not.toBeNull();
    expect(await store.roleByName(team.id, 'BILLING-READER')).toEqual(reader);
    expect(await store.roleById(team.id, reader!.id)).toEqual(reader);
    expect(await store.roleById(other.team.id, reader!.id)).toBeNull();

    expect(await store.updateRole({ ...reader!, name: 'MANAGER' })).toBe(false);
    expect(
      await store.updateRole({
        ...reader!,
        name: 'auditor',
        permissions: { api: { team_read: {} } },
      }),
    ).toBe(true);
    expect(await store.roleById(team.id, reader!.id)).toMatchObject({
      name: 'auditor',
      permissions: { api: { team_read: {} } },
    });
    await store.deleteRole(team.id, reader!.id);
    expect(await store.roleByName(team.id, 'auditor')).toBeNull();
    expect((await store.roles(team.id)).map((role) => role.name)).toEqual(
      DEFAULT_TEAM_ROLES.map((role) => role.name),
    );
  });

  it('replaces a pending invitation of the same address, lists, opens and ends invitations once', async () => {
    const { owner, team, roles } = await newTeam();
    const now = new Date();
    const later = new Date(now.getTime() + 7 * DAY);
    const invite = (email: string, tokenHash: string, expiresAt = later) =>
      store.invite({
        teamId: team.id,
        email,
        roleId: roles[2].id,
        tokenHash,
        tokenCiphertext: (id) => `sealed-${id}`,
        invitedBy: owner.id,
        expiresAt,
      });
    const unique = `${team.id}-${now.getTime()}`;
    const first = await invite(`ada-${unique}@example.test`, `hash-a-${unique}`);
    const second = await invite(`ADA-${unique}@example.test`, `hash-b-${unique}`);
    const expired = await invite(
      `old-${unique}@example.test`,
      `hash-c-${unique}`,
      new Date(now.getTime() - 1000),
    );

    expect(await store.invitationByToken([`hash-a-${unique}`], now)).toBeNull();
    const opened = await store.invitationByToken([`hash-x-${unique}`, `hash-b-${unique}`], now);
    expect(opened).toEqual({
      id: second,
      teamId: team.id,
      teamName: 'engines',
      email: `ADA-${unique}@example.test`,
      roleId: roles[2].id,
      roleName: 'member',
      invitedBy: owner.id,
      createdAt: expect.any(Date),
      expiresAt: later,
    });
    expect(await store.letterOf(second, now)).toEqual({
      invitation: opened,
      tokenCiphertext: `sealed-${second}`,
    });
    expect(await store.letterOf(first, now)).toBeNull();
    expect(await store.letterOf(expired, now)).toBeNull();
    expect((await store.pendingInvitations(team.id, now)).map((i) => i.id)).toEqual([second]);
    expect(
      (await store.invitationsFor(`ada-${unique}@EXAMPLE.test`, now)).map((i) => i.id),
    ).toEqual([second]);
    expect(await store.invitationById(second, now)).toEqual(opened);

    expect(await store.endInvitation(second, 'accepted', now)).toBe(true);
    expect(await store.endInvitation(second, 'revoked', now)).toBe(false);
    expect(await store.invitationById(second, now)).toBeNull();
    expect(await store.pendingInvitations(team.id, now)).toEqual([]);
  });

  it('destroys a team without resources: its roles, members and team credentials go with it', async () => {
    const { owner, team } = await newTeam();
    const key = await subject.apiKey(owner.id);
    await store.moveCredentialToTeam('api_key', key, team.id);
    expect(await store.destroy(team.id)).toBe(true);
    expect(await store.find(team.id)).toBeNull();
    expect(await store.roles(team.id)).toEqual([]);
    expect(await store.members(team.id)).toEqual([]);
    expect(await subject.credential(key)).toBeNull();
  });
}
