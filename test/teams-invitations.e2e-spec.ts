import { OutboxReader } from '@app/messaging';
import { categories, createKey, vastai } from '@test/support/access';
import { createTestUser, startApi, TestApi, TestUser } from '@test/support/api';
import { waitFor } from '@test/support/wait';
import { noticesTo, storedEvents } from '@test/support/account-security';
import { DataSource } from 'typeorm';

/** The invitation tokens mailed to `email`, oldest first. */
async function mailedTokens(api: TestApi, email: string): Promise<string[]> {
  const mails = await api.app.get(OutboxReader).list(email, 100, 'notice');
  return mails
    .reverse()
    .map((mail) => /gpumkt team accept (gmi_[0-9A-Za-z]+)/.exec(mail.body)?.[1])
    .filter((token): token is string => token !== undefined);
}

describe('team invitations, member keys', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  async function newTeam(): Promise<{ id: number; owner: TestUser }> {
    const owner = await createTestUser(api);
    const response = await vastai(api, owner, 'post', '/api/v0/team/', { team_name: 'engines', transfer_credit: 0 });
    expect(response.status).toBe(200);
    return { id: response.body.team_id, owner };
  }

  /** `vastai invite member --email E --role R`: the query string and the `{}` body it sends. */
  const invite = (owner: { apiKey: string }, email: string, role: string) =>
    vastai(
      api,
      owner,
      'post',
      `/api/v0/team/invite/?email=${encodeURIComponent(email).replace(/%20/g, '+')}&role=${role}`,
    );

  async function tokenFor(email: string, count = 1): Promise<string> {
    const tokens = await waitFor(
      () => mailedTokens(api, email),
      (found) => found.length >= count,
      { what: `invitation mail ${count} to ${email}` },
    );
    return tokens[count - 1];
  }

  it('`vastai invite member`: the mail carries a one-time token; accepting needs the invitee and gives a team key', async () => {
    const team = await newTeam();
    const bob = await createTestUser(api);
    const response = await invite(team.owner, bob.email, 'member');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, email: bob.email, role: 'member' });
    expect(JSON.stringify(response.body)).not.toMatch(/gmi_/);
    const token = await tokenFor(bob.email);

    // The pending invitation, in the team's context and in the invitee's own.
    const pending = await vastai(api, team.owner, 'get', '/api/v0/team/invitations/');
    expect(pending.body).toEqual([expect.objectContaining({ email: bob.email, role: 'member' })]);
    const mine = await vastai(api, bob, 'get', '/api/v0/team/invitations/');
    expect(mine.body).toEqual([expect.objectContaining({ team_id: team.id, team_name: 'engines' })]);

    // Someone else's credentials: the same 404 as no token at all.
    const eve = await createTestUser(api);
    const stolen = await vastai(api, eve, 'post', '/api/v0/team/accept/', { token });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error).toBe('not_found');
    const accepted = await vastai(api, bob, 'post', '/api/v0/team/accept/', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ team_id: team.id, role: 'member', team_api_key: { team_id: team.id } });
    const teamKey = { apiKey: accepted.body.team_api_key.key as string };
    // The team key acts in the team with the member role: no team_read, 2FA refused.
    expect((await vastai(api, teamKey, 'get', '/api/v0/users/current/')).status).toBe(200);
    expect((await vastai(api, teamKey, 'get', '/api/v0/team/members/')).status).toBe(403);
    expect((await vastai(api, teamKey, 'get', '/api/v0/tfa/status/')).body.error).toBe('team_user_forbidden');
    // Used once.
    const again = await vastai(api, bob, 'post', '/api/v0/team/accept/', { token });
    expect(again.status).toBe(404);
    const members = await vastai(api, team.owner, 'get', '/api/v0/team/members/');
    expect(members.body.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([
      [team.owner.id, 'owner'],
      [bob.id, 'member'],
    ]);

    // Joining is a security event of the member, mailed; removing them is another.
    await waitFor(
      () => noticesTo(api, bob.email),
      (notices) => notices.some((n) => /joined the team "engines" as "member"/.test(n.body)),
      { what: 'the joined notice' },
    );
    const kinds = await storedEvents(api, bob.id);
    expect(kinds.map((e) => [e.kind, e.details.change])).toContainEqual(['team_changed', 'team_member_joined']);

    // Another team key, asked for from the personal context with a full key.
    const second = await vastai(api, bob, 'post', `/api/v0/team/${team.id}/apikeys/`, { name: 'ci' });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ team_id: team.id, name: 'ci' });
    const scoped = await createKey(api, bob, { name: 'scoped', permissions: categories('user_write') });
    expect((await vastai(api, { apiKey: scoped.key }, 'post', `/api/v0/team/${team.id}/apikeys/`, {})).status).toBe(403);
    expect((await vastai(api, eve, 'post', `/api/v0/team/${team.id}/apikeys/`, {})).status).toBe(404);

    expect((await vastai(api, team.owner, 'delete', `/api/v0/team/members/${bob.id}/`)).status).toBe(200);
    await waitFor(
      () => noticesTo(api, bob.email),
      (notices) => notices.some((n) => /removed from the team "engines"/.test(n.body)),
      { what: 'the removal notice' },
    );
    // The owner's own record of it names the member, and is not mailed.
    const ownerEvents = await storedEvents(api, team.owner.id);
    expect(ownerEvents.map((e) => [e.details.change, e.details.member_id])).toContainEqual([
      'team_member_removed',
      bob.id,
    ]);
  });

  it('re-inviting replaces the token; an expired, declined or revoked one opens nothing', async () => {
    const team = await newTeam();
    const carol = await createTestUser(api);
    await invite(team.owner, carol.email, 'member');
    const first = await tokenFor(carol.email, 1);
    await invite(team.owner, carol.email, 'manager');
    const second = await tokenFor(carol.email, 2);
    expect(second).not.toBe(first);
    expect((await vastai(api, carol, 'post', '/api/v0/team/accept/', { token: first })).status).toBe(404);
    // Expired: seven days later.
    await db.query(`UPDATE team_invitations SET expires_at = now() - interval '1 second' WHERE team_id = $1`, [team.id]);
    expect((await vastai(api, carol, 'post', '/api/v0/team/accept/', { token: second })).status).toBe(404);
    // Declined.
    await invite(team.owner, carol.email, 'member');
    const third = await tokenFor(carol.email, 3);
    expect((await vastai(api, carol, 'post', '/api/v0/team/decline/', { token: third })).status).toBe(200);
    expect((await vastai(api, carol, 'post', '/api/v0/team/accept/', { token: third })).status).toBe(404);
    // Revoked.
    const revocable = await invite(team.owner, carol.email, 'member');
    const fourth = await tokenFor(carol.email, 4);
    const revoked = await vastai(api, team.owner, 'delete', `/api/v0/team/invitations/${revocable.body.invitation_id}/`);
    expect(revoked.status).toBe(200);
    expect((await vastai(api, carol, 'post', '/api/v0/team/accept/', { token: fourth })).status).toBe(404);
    expect((await vastai(api, team.owner, 'get', '/api/v0/team/invitations/')).body).toEqual([]);
  });

  it('an address without an account gets the same answer and a mail; a manager invites no owner', async () => {
    const team = await newTeam();
    const known = await createTestUser(api);
    const unknownEmail = `nobody-${team.id}@example.test`;
    const a = await invite(team.owner, known.email, 'member');
    const b = await invite(team.owner, unknownEmail, 'member');
    expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
    expect([a.status, b.status]).toEqual([200, 200]);
    await tokenFor(unknownEmail);
    // The invitee registers with that address, then accepts with their own key.
    const later = await createTestUser(api, { email: unknownEmail });
    const token = await tokenFor(unknownEmail);
    expect((await vastai(api, later, 'post', '/api/v0/team/accept/', { token })).status).toBe(200);

    const managerInvite = await invite(team.owner, `m-${team.id}@example.test`, 'manager');
    expect(managerInvite.status).toBe(200);
    const manager = await createTestUser(api, { email: `m-${team.id}@example.test` });
    const managerToken = await tokenFor(manager.email);
    const joined = await vastai(api, manager, 'post', '/api/v0/team/accept/', { token: managerToken });
    const managerKey = { apiKey: joined.body.team_api_key.key as string };
    const refused = await invite(managerKey, `o-${team.id}@example.test`, 'owner');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('permission_denied');
    const bad = await vastai(api, team.owner, 'post', '/api/v0/team/invite/?email=not-an-address&role=member');
    expect(bad.status).toBe(400);
    const noRole = await invite(team.owner, `x-${team.id}@example.test`, 'astronaut');
    expect(noRole.status).toBe(404);
  });
});
