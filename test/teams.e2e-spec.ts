import { categories, createKey, vastai } from '@test/support/access';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { UserRepository } from '@app/accounts';
import { DataSource } from 'typeorm';

/** A team made with `vastai create team`: the caller's key now acts in it. */
interface Team {
  id: number;
  owner: TestUser;
  /** The owner's key: the one that ran `create team`, a team key now. */
  teamKey: { apiKey: string };
  /** The fresh personal key the create answer carried. */
  personalKey: { apiKey: string };
}

describe('teams and roles, as the public client drives them', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  async function newTeam(name = 'engines', credit = 0): Promise<Team> {
    const owner = await createTestUser(api, { credit });
    const response = await vastai(api, owner, 'post', '/api/v0/team/', {
      team_name: name,
      transfer_credit: 0,
    });
    expect(response.status).toBe(200);
    return {
      id: response.body.team_id,
      owner,
      teamKey: { apiKey: owner.apiKey },
      personalKey: { apiKey: response.body.personal_api_key.key },
    };
  }

  /** Adds members directly (fixtures), then gives each the named role through the api. */
  async function withMember(team: Team, role: string): Promise<TestUser> {
    const user = await createTestUser(api);
    await db.query(`INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)`, [
      team.id,
      user.id,
    ]);
    const set = await vastai(api, team.teamKey, 'put', `/api/v0/team/members/${user.id}/`, {
      role,
    });
    expect(set.status).toBe(200);
    return user;
  }

  /** A team key of `user` in `team`, made as the fixtures make one. */
  async function teamKeyOf(user: TestUser, team: Team, key: string): Promise<{ apiKey: string }> {
    await loadFixtures(api, {
      teams: [{ id: team.id, name: 'engines', api_keys: [{ user_id: user.id, key }] }],
    });
    return { apiKey: key };
  }

  describe('vastai create team', () => {
    it('answers the team, its default roles and a fresh personal key; the calling key acts in the team', async () => {
      const owner = await createTestUser(api, { credit: 30 });
      const response = await vastai(api, owner, 'post', '/api/v0/team/', {
        team_name: 'analytical engines',
        transfer_credit: 12.5,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        success: true,
        team_name: 'analytical engines',
        credit: 12.5,
        personal_api_key: { key: expect.stringMatching(/^gmk_/), team_id: null, main: true },
      });
      expect(response.body.roles.map((r: { name: string }) => r.name)).toEqual([
        'owner',
        'manager',
        'member',
      ]);
      // The calling key is the owner's team key: team commands work with it, 2FA refuses it.
      const members = await vastai(api, owner, 'get', '/api/v0/team/members/');
      expect(members.status).toBe(200);
      expect(members.body).toEqual([
        expect.objectContaining({ id: owner.id, email: owner.email, role: 'owner' }),
      ]);
      const tfa = await vastai(api, owner, 'get', '/api/v0/tfa/status/');
      expect(tfa.status).toBe(403);
      expect(tfa.body.error).toBe('team_user_forbidden');
      // The team's users/current shows the team's credit; the personal key, what is left.
      const personal = { apiKey: response.body.personal_api_key.key as string };
      const me = await vastai(api, personal, 'get', '/api/v0/users/current/');
      expect(me.body.credit).toBe(17.5);
      const teamMe = await vastai(api, owner, 'get', '/api/v0/users/current/');
      expect(teamMe.body.credit).toBe(12.5);
      // The personal key reaches the personal context (no team there).
      expect((await vastai(api, personal, 'get', '/api/v0/team/members/')).body.error).toBe(
        'team_context_required',
      );
    });

    it('gives a session that creates a team a full personal key back, as a key caller gets one', async () => {
      const password = 'a long team session password';
      const owner = await createTestUser(api, { password });
      const login = await api
        .http()
        .post('/api/v0/users/login/')
        .send({ email: owner.email, password });
      expect(login.status).toBe(200);
      const session = { apiKey: login.body.session_key as string };
      const response = await vastai(api, session, 'post', '/api/v0/team/', {
        team_name: 'sessions',
      });
      expect(response.status).toBe(200);
      // The user's main key stays theirs: the new key is a full personal key beside it.
      expect(response.body.personal_api_key).toMatchObject({
        key: expect.stringMatching(/^gmk_/),
        team_id: null,
        main: false,
        permissions: null,
      });
      // The session now acts in the team; the new key in the personal context.
      expect((await vastai(api, session, 'get', '/api/v0/team/members/')).status).toBe(200);
      const personal = { apiKey: response.body.personal_api_key.key as string };
      expect((await vastai(api, personal, 'get', '/api/v0/team/members/')).body.error).toBe(
        'team_context_required',
      );
      expect((await vastai(api, personal, 'get', '/api/v0/tfa/status/')).status).toBe(200);
      // The main key the user had is untouched and still personal.
      expect((await vastai(api, owner, 'get', '/api/v0/team/members/')).body.error).toBe(
        'team_context_required',
      );
    });

    it('refuses a transfer beyond the credit, and changes nothing', async () => {
      const owner = await createTestUser(api, { credit: 5 });
      const response = await vastai(api, owner, 'post', '/api/v0/team/', {
        team_name: 'too rich',
        transfer_credit: 5.0001,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: 'insufficient_credit' });
      expect((await vastai(api, owner, 'get', '/api/v0/users/current/')).body.credit).toBe(5);
      expect((await vastai(api, owner, 'get', '/api/v0/team/members/')).status).toBe(403);
    });

    it('refuses a bad name or amount with a clear error, and a create from a team key', async () => {
      const owner = await createTestUser(api);
      for (const body of [
        { team_name: '' },
        { team_name: 'x', transfer_credit: -1 },
        { team_name: 'x', transfer_credit: 'lots' },
      ]) {
        const response = await vastai(api, owner, 'post', '/api/v0/team/', body);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('bad_request');
      }
      const team = await newTeam();
      const again = await vastai(api, team.teamKey, 'post', '/api/v0/team/', {
        team_name: 'nested',
      });
      expect(again.status).toBe(403);
      expect(again.body.error).toBe('personal_context_required');
    });

    it('20 parallel creates with transfer_credit: never negative, the sums exact', async () => {
      const owner = await createTestUser(api, { credit: 100 });
      const keys = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createKey(api, owner, { name: `k${i}` })),
      );
      const answers = await Promise.all(
        keys.map((key, i) =>
          vastai(api, { apiKey: key.key }, 'post', '/api/v0/team/', {
            team_name: `t${i}`,
            transfer_credit: 7.0001,
          }),
        ),
      );
      const created = answers.filter((a) => a.status === 200);
      expect(created).toHaveLength(14);
      expect(
        answers
          .filter((a) => a.status === 400)
          .every((a) => a.body.error === 'insufficient_credit'),
      ).toBe(true);
      const [user] = await db.query(`SELECT credit::text AS credit FROM users WHERE id = $1`, [
        owner.id,
      ]);
      expect(user.credit).toBe('1.9986');
      const [teams] = await db.query(
        `SELECT sum(t.credit)::text AS total, count(*)::int AS count FROM teams t
           JOIN team_members m ON m.team_id = t.id WHERE m.user_id = $1`,
        [owner.id],
      );
      expect(teams).toEqual({ total: '98.0014', count: 14 });
    });
  });

  describe('vastai create / show / update / remove team-role, show team-roles', () => {
    it('drives custom roles with the public permission JSON', async () => {
      const team = await newTeam();
      const created = await vastai(api, team.teamKey, 'post', '/api/v0/team/roles/', {
        name: 'billing-reader',
        permissions: categories('billing_read'),
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        success: true,
        name: 'billing-reader',
        permissions: { api: { billing_read: {} } },
        is_default: false,
      });
      const shown = await vastai(api, team.teamKey, 'get', '/api/v0/team/roles/billing-reader/');
      expect(shown.status).toBe(200);
      expect(shown.body.id).toBe(created.body.id);
      const list = await vastai(api, team.teamKey, 'get', '/api/v0/team/roles-full/');
      expect(list.body.map((r: { name: string }) => r.name)).toEqual([
        'owner',
        'manager',
        'member',
        'billing-reader',
      ]);
      const updated = await vastai(
        api,
        team.teamKey,
        'put',
        `/api/v0/team/roles/${created.body.id}/`,
        {
          name: 'accountant',
          permissions: categories('billing_read', 'team_read'),
        },
      );
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        name: 'accountant',
        permissions: categories('billing_read', 'team_read'),
      });
      const bad = await vastai(api, team.teamKey, 'post', '/api/v0/team/roles/', {
        name: 'broken',
        permissions: { api: { billing_reed: {} } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.msg).toMatch(/permissions\.api\.billing_reed: unknown category/);
      expect(
        (await vastai(api, team.teamKey, 'delete', '/api/v0/team/roles/owner/')).body.error,
      ).toBe('team_role_default');
      const removed = await vastai(api, team.teamKey, 'delete', '/api/v0/team/roles/accountant/');
      expect(removed.status).toBe(200);
      expect(
        (await vastai(api, team.teamKey, 'get', '/api/v0/team/roles/accountant/')).status,
      ).toBe(404);
    });
  });

  describe('a member acts with the intersection of role and key', () => {
    it('a billing-only role refuses what the full key would allow, and a member cannot hand out more', async () => {
      const team = await newTeam();
      await vastai(api, team.teamKey, 'post', '/api/v0/team/roles/', {
        name: 'reader',
        permissions: categories('billing_read', 'team_read'),
      });
      const bob = await withMember(team, 'reader');
      const bobKey = await teamKeyOf(bob, team, `team-key-${bob.id}-aaaaaaaa`);
      expect((await vastai(api, bobKey, 'get', '/api/v0/team/members/')).status).toBe(200);
      const refused = await vastai(api, bobKey, 'get', '/api/v0/endptjobs/');
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('permission_denied');
      const escalate = await vastai(api, bobKey, 'post', '/api/v0/team/roles/', {
        name: 'more',
        permissions: categories('misc'),
      });
      expect(escalate.status).toBe(403);
      // A manager cannot make anyone an owner: the owner role is every permission.
      const carol = await withMember(team, 'manager');
      const carolKey = await teamKeyOf(carol, team, `team-key-${carol.id}-bbbbbbbb`);
      const promote = await vastai(api, carolKey, 'put', `/api/v0/team/members/${bob.id}/`, {
        role: 'owner',
      });
      expect(promote.status).toBe(403);
      expect(promote.body.msg).toMatch(/full access/);
      // A role change holds at once: bob as a member has no team_read.
      expect(
        (await vastai(api, carolKey, 'put', `/api/v0/team/members/${bob.id}/`, { role: 'member' }))
          .status,
      ).toBe(200);
      expect((await vastai(api, bobKey, 'get', '/api/v0/team/members/')).status).toBe(403);
    });

    it("a team key makes keys within the member's role and key together, not the key's own document", async () => {
      const team = await newTeam();
      await vastai(api, team.teamKey, 'post', '/api/v0/team/roles/', {
        name: 'keymaker',
        permissions: categories('billing_read', 'user_write'),
      });
      const dana = await withMember(team, 'keymaker');
      // A full team key: its own document would allow anything; the role allows two categories
      // (user_write, to make keys at all).
      const danaKey = await teamKeyOf(dana, team, `team-key-${dana.id}-cccccccc`);
      const make = (permissions?: unknown) =>
        vastai(api, danaKey, 'post', '/api/v0/auth/apikeys/', {
          name: 'child',
          ...(permissions === undefined ? {} : { permissions }),
        });
      for (const beyond of [
        categories('misc'),
        categories('billing_read', 'instance_read'),
        undefined,
      ]) {
        const refused = await make(beyond);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({
          success: false,
          error: 'permission_denied',
          msg: expect.stringMatching(
            /^Permission denied: a key can only make keys within its own permissions; this one would have /,
          ),
        });
      }
      const within = await make(categories('billing_read'));
      expect(within.status).toBe(200);
      expect(within.body).toMatchObject({ team_id: team.id });
      // The owner's full team key (the owner role is every permission) still makes a full key.
      expect(
        (await vastai(api, team.teamKey, 'post', '/api/v0/auth/apikeys/', { name: 'full' })).status,
      ).toBe(200);
    });
  });

  describe('fixture team keys', () => {
    it('refuses a team key of someone who is not a member, naming it; a key whose member left may do nothing', async () => {
      const team = await newTeam();
      const stranger = await createTestUser(api);
      await expect(
        loadFixtures(api, {
          teams: [
            {
              id: team.id,
              name: 'engines',
              api_keys: [{ user_id: stranger.id, key: `team-key-${stranger.id}-dddddddd` }],
            },
          ],
        }),
      ).rejects.toMatchObject({
        message: `teams[${team.id}].api_keys: user ${stranger.id} is not a member of team ${team.id}; list them in teams[${team.id}].members first`,
      });
      const [{ count }] = await db.query(
        `SELECT count(*)::int AS count FROM api_keys WHERE user_id = $1 AND team_id = $2`,
        [stranger.id, team.id],
      );
      expect(count).toBe(0);
      // Listed as a member, the same key loads and acts within the member's role.
      await loadFixtures(api, {
        teams: [
          {
            id: team.id,
            name: 'engines',
            members: [stranger.id],
            api_keys: [{ user_id: stranger.id, key: `team-key-${stranger.id}-dddddddd` }],
          },
        ],
      });
      const key = { apiKey: `team-key-${stranger.id}-dddddddd` };
      // A membership gone behind the api's back (no revocation) leaves the key nothing to act within.
      await db.query(`DELETE FROM team_members WHERE team_id = $1 AND user_id = $2`, [
        team.id,
        stranger.id,
      ]);
      const refused = await vastai(api, key, 'get', '/api/v0/users/current/');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, error: 'permission_denied' });
      expect((await vastai(api, key, 'get', '/api/v0/team/members/')).status).toBe(403);
    });
  });

  describe('vastai remove member, destroy team: the last owner stays', () => {
    it('refuses to remove or demote the last owner, removes a member whose keys then stop', async () => {
      const team = await newTeam();
      const self = await vastai(
        api,
        team.teamKey,
        'delete',
        `/api/v0/team/members/${team.owner.id}/`,
      );
      expect(self.status).toBe(409);
      expect(self.body.error).toBe('team_last_owner');
      const demote = await vastai(
        api,
        team.teamKey,
        'put',
        `/api/v0/team/members/${team.owner.id}/`,
        { role: 'member' },
      );
      expect(demote.body.error).toBe('team_last_owner');
      const bob = await withMember(team, 'member');
      const bobKey = await teamKeyOf(bob, team, `team-key-${bob.id}-cccccccc`);
      expect((await vastai(api, bobKey, 'get', '/api/v0/users/current/')).status).toBe(200);
      const destroyRefused = await vastai(api, team.teamKey, 'delete', '/api/v0/team/');
      expect(destroyRefused.body.error).toBe('team_not_empty');
      const memberDestroy = await vastai(api, bobKey, 'delete', '/api/v0/team/');
      expect(memberDestroy.status).toBe(403);
      const removed = await vastai(api, team.teamKey, 'delete', `/api/v0/team/members/${bob.id}/`);
      expect(removed.status).toBe(200);
      expect((await vastai(api, bobKey, 'get', '/api/v0/users/current/')).status).toBe(404);
      expect(
        (await vastai(api, team.teamKey, 'delete', `/api/v0/team/members/${bob.id}/`)).status,
      ).toBe(404);
      const destroyed = await vastai(api, team.teamKey, 'delete', '/api/v0/team/');
      expect(destroyed.status).toBe(200);
      expect((await vastai(api, team.teamKey, 'get', '/api/v0/users/current/')).status).toBe(404);
      expect((await vastai(api, team.personalKey, 'get', '/api/v0/users/current/')).status).toBe(
        200,
      );
    });
  });

  describe('require_tfa', () => {
    it('refuses members without 2FA in the team until they enable it; owners only; the personal context stays', async () => {
      const team = await newTeam();
      const users = api.app.get(UserRepository);
      const bob = await withMember(team, 'manager');
      const bobKey = await teamKeyOf(bob, team, `team-key-${bob.id}-dddddddd`);
      // Without 2FA of their own, the owner cannot require it.
      const early = await vastai(api, team.teamKey, 'put', '/api/v0/team/', { require_tfa: true });
      expect(early.status).toBe(403);
      expect(early.body.error).toBe('team_tfa_required');
      await users.setTfaState(team.owner.id, true, 'enabled');
      expect(
        (await vastai(api, bobKey, 'put', '/api/v0/team/', { require_tfa: true })).body.error,
      ).toBe('team_owner_required');
      const set = await vastai(api, team.teamKey, 'put', '/api/v0/team/', { require_tfa: true });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({
        success: true,
        team_id: team.id,
        team_name: 'engines',
        require_tfa: true,
      });
      const refused = await vastai(api, bobKey, 'get', '/api/v0/users/current/');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        error: 'team_tfa_required',
        msg: expect.stringMatching(/two-factor/),
      });
      expect((await vastai(api, bob, 'get', '/api/v0/users/current/')).status).toBe(200);
      await users.setTfaState(bob.id, true, 'enabled');
      expect((await vastai(api, bobKey, 'get', '/api/v0/users/current/')).status).toBe(200);
      expect(
        (await vastai(api, team.teamKey, 'put', '/api/v0/team/', { require_tfa: 'yes' })).status,
      ).toBe(400);
    });
  });
});
