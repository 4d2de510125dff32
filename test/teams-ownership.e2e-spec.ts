import { vastai } from '@test/support/access';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { DataSource } from 'typeorm';

/**
 * What a team owns: an endpoint group made in a team's context is the team's. Every member
 * whose role allows it sees and changes it; the personal context never sees it, the team
 * context never sees a member's personal groups, and another team sees nothing (BOLA).
 */
describe('team ownership of endpoint groups', () => {
  let api: TestApi;
  let db: DataSource;

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  interface Team {
    id: number;
    owner: TestUser;
    ownerTeamKey: { apiKey: string };
    ownerPersonal: { apiKey: string };
    manager: TestUser;
    managerTeamKey: { apiKey: string };
  }

  async function newTeam(): Promise<Team> {
    const owner = await createTestUser(api);
    const created = await vastai(api, owner, 'post', '/api/v0/team/', { team_name: 'owners', transfer_credit: 0 });
    const id = created.body.team_id as number;
    const manager = await createTestUser(api);
    await db.query(`INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)`, [id, manager.id]);
    await vastai(api, owner, 'put', `/api/v0/team/members/${manager.id}/`, { role: 'manager' });
    const key = await vastai(api, manager, 'post', `/api/v0/team/${id}/apikeys/`, {});
    return {
      id,
      owner,
      ownerTeamKey: { apiKey: owner.apiKey },
      ownerPersonal: { apiKey: created.body.personal_api_key.key },
      manager,
      managerTeamKey: { apiKey: key.body.key },
    };
  }

  const groupIds = async (key: { apiKey: string }): Promise<number[]> =>
    ((await vastai(api, key, 'get', '/api/v0/endptjobs/')).body.results as Array<{ id: number }>).map(
      (group) => group.id,
    );

  it('a group made in team context is the team\'s: members see and change it, personal contexts do not', async () => {
    const team = await newTeam();
    const made = await vastai(api, team.ownerTeamKey, 'post', '/api/v0/endptjobs/', { endpoint_name: 'team-llama' });
    expect(made.status).toBe(200);
    const groupId = made.body.result as number;
    const personal = await vastai(api, team.manager, 'post', '/api/v0/endptjobs/', { endpoint_name: 'mine' });
    const personalId = personal.body.result as number;

    expect(await groupIds(team.managerTeamKey)).toEqual([groupId]);
    expect(await groupIds(team.ownerPersonal)).toEqual([]);
    expect(await groupIds(team.manager)).toEqual([personalId]);
    // The team context never reaches a member's personal group.
    expect((await vastai(api, team.ownerTeamKey, 'put', `/api/v0/endptjobs/${personalId}/`, { max_workers: 20 })).status).not.toBe(200);
    expect((await vastai(api, team.ownerTeamKey, 'delete', `/api/v0/endptjobs/${personalId}/`)).status).not.toBe(200);
    // The personal context never reaches the team's.
    expect((await vastai(api, team.ownerPersonal, 'put', `/api/v0/endptjobs/${groupId}/`, { max_workers: 20 })).status).not.toBe(200);
    // Another member changes it.
    expect((await vastai(api, team.managerTeamKey, 'put', `/api/v0/endptjobs/${groupId}/`, { max_workers: 20 })).status).toBe(200);

    // Destroying the team is refused while it holds the group.
    await vastai(api, team.ownerTeamKey, 'delete', `/api/v0/team/members/${team.manager.id}/`);
    const refused = await vastai(api, team.ownerTeamKey, 'delete', '/api/v0/team/');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'team_not_empty', msg: expect.stringMatching(/resources/) });
    expect((await vastai(api, team.ownerTeamKey, 'delete', `/api/v0/endptjobs/${groupId}/`)).status).toBe(200);
    expect((await vastai(api, team.ownerTeamKey, 'delete', '/api/v0/team/')).status).toBe(200);
  });

  it('BOLA: one team never sees, changes or deletes another team\'s group', async () => {
    const a = await newTeam();
    const b = await newTeam();
    const made = await vastai(api, a.ownerTeamKey, 'post', '/api/v0/endptjobs/', { endpoint_name: 'a-only' });
    const groupId = made.body.result as number;
    expect(await groupIds(b.ownerTeamKey)).toEqual([]);
    for (const key of [b.ownerTeamKey, b.managerTeamKey]) {
      expect((await vastai(api, key, 'put', `/api/v0/endptjobs/${groupId}/`, { max_workers: 20 })).status).not.toBe(200);
      expect((await vastai(api, key, 'delete', `/api/v0/endptjobs/${groupId}/`)).status).not.toBe(200);
    }
    expect(await groupIds(a.managerTeamKey)).toEqual([groupId]);
  });

  it('a volume listing the team holds: its members unlist it, no personal context and no other team can', async () => {
    const a = await newTeam();
    const b = await newTeam();
    const listingId = 900000 + (a.id % 99999);
    await loadFixtures(api, {
      volume_listings: [
        { id: listingId, owner_id: a.owner.id, team_id: a.id, machine_id: 7001, size_gb: 100 },
      ],
    });
    const unlist = (key: { apiKey: string }) =>
      vastai(api, key, 'post', '/api/v0/volumes/unlist/', { id: listingId });
    for (const key of [a.ownerPersonal, b.ownerTeamKey, b.managerTeamKey]) {
      const refused = await unlist(key);
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe('Volume listing does not exist');
    }
    expect((await unlist(a.managerTeamKey)).status).toBe(200);
  });
});
