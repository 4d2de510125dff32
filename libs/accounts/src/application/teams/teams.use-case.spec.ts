import { intersectPermissions, Principal } from '@app/platform';
import {
  SnapshotUnitOfWork,
  StaticAccessCatalog,
  testOrigin,
  testPrincipal,
} from '@app/platform/testing';
import { rolePermissions, TeamRole } from '../../domain/team';
import { accountsKit } from '../../testing/accounts-kit';
import { InMemoryTeamStore } from '../../testing/in-memory-team-store';
import { CallerGrant } from '../api-keys/caller-grant.service';
import { CreateTeamRoleUseCase } from './create-team-role.use-case';
import { CreateTeamUseCase } from './create-team.use-case';
import { DestroyTeamUseCase } from './destroy-team.use-case';
import { RemoveTeamMemberUseCase } from './remove-team-member.use-case';
import { SetTeamMemberRoleUseCase } from './set-team-member-role.use-case';
import { TeamCallerResolver } from './team-caller.service';
import { TeamRoleDocument } from './team-role-document.service';

const ORIGIN = testOrigin();
const catalog = new StaticAccessCatalog({ 'api.charges.show': 'billing_read' });

/**
 * The team use cases on the in-memory TeamStore (held to PostgresTeamStore by
 * testing/team-store.contract.ts): creating a team from a key or a session, the last-owner
 * rules, nobody granting beyond their own grant, destroying, and the effective grant a
 * team key makes keys within (docs/teams.md).
 */
describe('team use cases', () => {
  let kit: ReturnType<typeof accountsKit>;
  let store: InMemoryTeamStore;
  let uow: SnapshotUnitOfWork;
  let callers: TeamCallerResolver;
  let createTeam: CreateTeamUseCase;
  let setRole: SetTeamMemberRoleUseCase;
  let removeMember: RemoveTeamMemberUseCase;
  let destroy: DestroyTeamUseCase;
  let createRole: CreateTeamRoleUseCase;

  beforeEach(() => {
    kit = accountsKit();
    store = new InMemoryTeamStore(kit.users, kit.credentials, () => kit.clock.now());
    uow = new SnapshotUnitOfWork();
    uow.join(store);
    callers = new TeamCallerResolver(store);
    createTeam = new CreateTeamUseCase(store, kit.issuer, kit.cache, uow);
    setRole = new SetTeamMemberRoleUseCase(store, callers, kit.cache, uow);
    removeMember = new RemoveTeamMemberUseCase(store, callers, kit.cache, kit.clock, uow);
    destroy = new DestroyTeamUseCase(store, callers, kit.cache, uow);
    createRole = new CreateTeamRoleUseCase(store, callers, new TeamRoleDocument(catalog), uow);
  });

  async function userWithMainKey(credit = 0) {
    const user = await kit.users.create({ email: `u${kit.users.rows.size}@example.test`, credit });
    const key = await kit.issuer.issueManagedKey({
      userId: user.id,
      teamId: null,
      name: null,
      permissions: null,
      keyParams: null,
      expiresAt: null,
      main: true,
    });
    return { user, keyId: key.apiKey.id };
  }

  /** A team of `owner`, its roles by name. */
  async function teamOf(ownerId: number, keyId: number) {
    const created = await createTeam.execute({
      principal: testPrincipal({ userId: ownerId, credentialId: keyId }),
      teamName: 'engines',
      transferCredit: '0',
      origin: ORIGIN,
    });
    const roles = new Map(created.roles.map((role) => [role.name, role]));
    return { team: created.team, roles };
  }

  /** A member acting in the team with a full key: what their role allows. */
  const inTeam = (userId: number, teamId: number, role: TeamRole | undefined): Principal =>
    testPrincipal({
      userId,
      teamId,
      credentialId: 999,
      permissions: intersectPermissions({ full: true }, rolePermissions(role ?? null)),
    });

  describe('create team', () => {
    it("turns the calling key into the owner's team key and answers a personal key with its grant", async () => {
      const { user, keyId } = await userWithMainKey(30);
      const created = await createTeam.execute({
        principal: testPrincipal({ userId: user.id, credentialId: keyId }),
        teamName: ' engines ',
        transferCredit: '12.5',
        origin: ORIGIN,
      });
      expect(created.team).toMatchObject({ name: 'engines', credit: '12.5000' });
      expect(created.personalKey.apiKey).toMatchObject({
        userId: user.id,
        teamId: null,
        main: true,
      });
      const moved = kit.credentials.rows.find((row) => row.id === keyId)!;
      expect([moved.teamId, moved.main]).toEqual([created.team.id, false]);
      expect((await kit.users.findById(user.id))!.credit).toBe(17.5);
      expect(kit.cache.changes).toContain(user.id);
    });

    it('gives a session a full personal key, never the main key', async () => {
      const { user, keyId } = await userWithMainKey();
      const session = await kit.issuer.issueSession(user.id);
      const sessionId = kit.credentials.sessions.at(-1)!.id;
      expect(session.sessionKey).toMatch(/^gms_/);
      const created = await createTeam.execute({
        principal: testPrincipal({
          userId: user.id,
          credentialId: sessionId,
          credentialKind: 'session',
        }),
        teamName: 'sessions',
        transferCredit: undefined,
        origin: ORIGIN,
      });
      expect(created.personalKey.apiKey).toMatchObject({
        teamId: null,
        main: false,
        name: 'personal',
      });
      expect(created.personalKey.apiKey.permissions).toEqual({ full: true });
      expect(kit.credentials.sessions.at(-1)!.teamId).toBe(created.team.id);
      expect(kit.credentials.rows.find((row) => row.id === keyId)).toMatchObject({
        main: true,
        teamId: null,
      });
    });

    it('refuses more credit than the user has and leaves no team behind; refuses a team key', async () => {
      const { user, keyId } = await userWithMainKey(5);
      await expect(
        createTeam.execute({
          principal: testPrincipal({ userId: user.id, credentialId: keyId }),
          teamName: 'rich',
          transferCredit: '5.0001',
          origin: ORIGIN,
        }),
      ).rejects.toMatchObject({ code: 'insufficient_credit' });
      expect(await store.find(1_000_000)).toBeNull();
      expect((await kit.users.findById(user.id))!.credit).toBe(5);
      await expect(
        createTeam.execute({
          principal: testPrincipal({ userId: user.id, credentialId: keyId, teamId: 7 }),
          teamName: 'nested',
          transferCredit: '0',
          origin: ORIGIN,
        }),
      ).rejects.toMatchObject({ code: 'personal_context_required' });
    });
  });

  describe('roles and members', () => {
    it('keeps the last owner: not demoted, not removed, until another owner exists', async () => {
      const { user: ada, keyId } = await userWithMainKey();
      const { team, roles } = await teamOf(ada.id, keyId);
      const owner = inTeam(ada.id, team.id, roles.get('owner'));
      await expect(setRole.execute(owner, ada.id, 'manager', ORIGIN)).rejects.toMatchObject({
        code: 'team_last_owner',
      });
      await expect(removeMember.execute(owner, ada.id, ORIGIN)).rejects.toMatchObject({
        code: 'team_last_owner',
      });
      const { user: grace } = await userWithMainKey();
      await store.addMember(team.id, grace.id, roles.get('member')!.id);
      await setRole.execute(owner, grace.id, 'owner', ORIGIN);
      expect(await setRole.execute(owner, ada.id, 'manager', ORIGIN)).toMatchObject({
        roleName: 'manager',
      });
      expect(kit.cache.changes).toEqual(expect.arrayContaining([grace.id, ada.id]));
    });

    it('lets nobody grant beyond their own grant: a manager makes no owner, a member no broader role', async () => {
      const { user: ada, keyId } = await userWithMainKey();
      const { team, roles } = await teamOf(ada.id, keyId);
      const { user: grace } = await userWithMainKey();
      const { user: bob } = await userWithMainKey();
      await store.addMember(team.id, grace.id, roles.get('manager')!.id);
      await store.addMember(team.id, bob.id, roles.get('member')!.id);
      const manager = inTeam(grace.id, team.id, roles.get('manager'));
      await expect(setRole.execute(manager, bob.id, 'owner', ORIGIN)).rejects.toMatchObject({
        code: 'permission_denied',
      });
      await expect(setRole.execute(manager, ada.id, 'member', ORIGIN)).rejects.toMatchObject({
        code: 'permission_denied',
      });
      const member = inTeam(bob.id, team.id, roles.get('member'));
      await expect(
        createRole.execute(
          member,
          { name: 'billing', permissions: { api: { billing_read: {} } } },
          ORIGIN,
        ),
      ).rejects.toMatchObject({ code: 'permission_denied' });
      expect(await store.roleByName(team.id, 'billing')).toBeNull();
    });

    it('removes a member and ends their team keys, not their personal ones', async () => {
      const { user: ada, keyId } = await userWithMainKey();
      const { team, roles } = await teamOf(ada.id, keyId);
      const { user: bob, keyId: personal } = await userWithMainKey();
      await store.addMember(team.id, bob.id, roles.get('member')!.id);
      const teamKey = await kit.issuer.issueManagedKey({
        userId: bob.id,
        teamId: team.id,
        name: null,
        permissions: null,
        keyParams: null,
        expiresAt: null,
        main: false,
      });
      await removeMember.execute(inTeam(ada.id, team.id, roles.get('owner')), bob.id, ORIGIN);
      expect(
        kit.credentials.rows.find((row) => row.id === teamKey.apiKey.id)!.revokedAt,
      ).not.toBeNull();
      expect(kit.credentials.rows.find((row) => row.id === personal)!.revokedAt).toBeNull();
      expect(await store.member(team.id, bob.id)).toBeNull();
    });
  });

  describe('destroy team', () => {
    it('needs an owner, and refuses while members or resources remain', async () => {
      const { user: ada, keyId } = await userWithMainKey();
      const { team, roles } = await teamOf(ada.id, keyId);
      const { user: grace } = await userWithMainKey();
      await store.addMember(team.id, grace.id, roles.get('manager')!.id);
      const owner = inTeam(ada.id, team.id, roles.get('owner'));
      await expect(
        destroy.execute(inTeam(grace.id, team.id, roles.get('manager')), ORIGIN),
      ).rejects.toMatchObject({
        code: 'team_owner_required',
      });
      await expect(destroy.execute(owner, ORIGIN)).rejects.toMatchObject({
        code: 'team_not_empty',
      });
      await store.removeMember(team.id, grace.id, kit.clock.now());
      store.resources.add(team.id);
      await expect(destroy.execute(owner, ORIGIN)).rejects.toMatchObject({
        code: 'team_not_empty',
        message: expect.stringMatching(/contracts/),
      });
      store.resources.delete(team.id);
      expect(await destroy.execute(owner, ORIGIN)).toEqual({ teamId: team.id, name: 'engines' });
      expect(await store.find(team.id)).toBeNull();
    });
  });

  describe('the grant a team key makes keys within', () => {
    it("is the member's role intersected with the key, read now", async () => {
      const { user: ada, keyId } = await userWithMainKey();
      const { team, roles } = await teamOf(ada.id, keyId);
      const { user: bob } = await userWithMainKey();
      await store.addMember(team.id, bob.id, roles.get('member')!.id);
      const teamKey = await kit.issuer.issueManagedKey({
        userId: bob.id,
        teamId: team.id,
        name: null,
        permissions: null,
        keyParams: null,
        expiresAt: null,
        main: false,
      });
      const grant = new CallerGrant(kit.apiKeys, store);
      const principal = testPrincipal({
        userId: bob.id,
        teamId: team.id,
        credentialId: teamKey.apiKey.id,
      });
      expect((await grant.of(principal)).permissions).toEqual(
        rolePermissions(roles.get('member')!),
      );
      await store.setMemberRole(team.id, bob.id, roles.get('owner')!.id);
      expect((await grant.of(principal)).permissions).toEqual({ full: true });
      await store.removeMember(team.id, bob.id, kit.clock.now());
      await expect(grant.of(principal)).rejects.toMatchObject({ code: 'auth_invalid_key' });
    });
  });
});
