import { vastai } from '@test/support/access';
import { createTestUser, SpawnedProcess, TestApi, TestUser } from '@test/support/api';
import { answeredAfter, startTwoReplicas, statusOn, TwoReplicas } from '@test/support/replicas';
import { DataSource } from 'typeorm';

/**
 * Removing a member and changing their role hold on every replica within 1 s: the replica
 * has the member's team key in its credential cache (it just served it), and the change is
 * made through the other api process.
 */
describe('team membership changes across two api replicas', () => {
  const WITHIN_MS = 1_000;

  let replicas: TwoReplicas;
  let api: TestApi;
  let replica: SpawnedProcess;

  beforeAll(async () => {
    replicas = await startTwoReplicas();
    ({ api, replica } = replicas);
  });
  afterAll(() => replicas.close());

  /** Asks the replica until `path` answers `status` to the key; how long after `since` that was. */
  const replicaAnsweredAfter = (key: string, path: string, status: number, since: number) =>
    answeredAfter(replica.url, key, path, status, since, 10 * WITHIN_MS);

  /** A team whose owner holds `owner`'s key, and a manager with a team key of their own. */
  async function teamWithManager(): Promise<{
    owner: TestUser;
    member: TestUser;
    memberKey: string;
    teamId: number;
  }> {
    const owner = await createTestUser(api);
    const created = await vastai(api, owner, 'post', '/api/v0/team/', {
      team_name: 'replicated',
      transfer_credit: 0,
    });
    const teamId = created.body.team_id as number;
    const member = await createTestUser(api);
    await api.app
      .get(DataSource)
      .query(`INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)`, [teamId, member.id]);
    expect(
      (await vastai(api, owner, 'put', `/api/v0/team/members/${member.id}/`, { role: 'manager' }))
        .status,
    ).toBe(200);
    const key = await vastai(api, member, 'post', `/api/v0/team/${teamId}/apikeys/`, {});
    expect(key.status).toBe(200);
    return { owner, member, memberKey: key.body.key, teamId };
  }

  it("a removed member's team key is refused by the replica within 1 s", async () => {
    const { owner, member, memberKey } = await teamWithManager();
    for (let i = 0; i < 3; i++)
      expect(await statusOn(replica.url, memberKey, '/api/v0/team/members/')).toBe(200);
    const response = await vastai(api, owner, 'delete', `/api/v0/team/members/${member.id}/`);
    const started = Date.now();
    expect(response.status).toBe(200);
    expect(await statusOn(api.url, memberKey, '/api/v0/team/members/')).toBe(404);
    expect(
      await replicaAnsweredAfter(memberKey, '/api/v0/team/members/', 404, started),
    ).toBeLessThan(WITHIN_MS);
  });

  it('a role change holds on the replica within 1 s', async () => {
    const { owner, member, memberKey } = await teamWithManager();
    for (let i = 0; i < 3; i++)
      expect(await statusOn(replica.url, memberKey, '/api/v0/team/members/')).toBe(200);
    const response = await vastai(api, owner, 'put', `/api/v0/team/members/${member.id}/`, {
      role: 'member',
    });
    const started = Date.now();
    expect(response.status).toBe(200);
    expect(await statusOn(api.url, memberKey, '/api/v0/team/members/')).toBe(403);
    expect(
      await replicaAnsweredAfter(memberKey, '/api/v0/team/members/', 403, started),
    ).toBeLessThan(WITHIN_MS);
    // Still a member: the account itself is served.
    expect(await statusOn(replica.url, memberKey, '/api/v0/users/current/')).toBe(200);
  });
});
