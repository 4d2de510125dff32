import { vastai } from '@test/support/access';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';
import { cleanBilling, exportAsText } from '@test/support/billing';
import { DataSource } from 'typeorm';

/**
 * Contracts a team owns (docs/teams.md "Ownership"): the charges report (table and tree,
 * paginated), its export and its statement show, in a team's context, the team's
 * contracts to every member whose role allows billing_read, whoever made them; in the
 * personal context only the user's own contracts outside any team; another team's never
 * (BOLA). A member whose role lacks billing_read is refused. Contract ids 790000-790999
 * belong to this file.
 */
const DAY = 86_400;
const D0 = Date.UTC(2026, 4, 4) / 1000; // Monday 2026-05-04
const day = (n: number) => D0 + n * DAY;
const IDS: [number, number] = [790_000, 790_999];

type Key = { apiKey: string };

interface Team {
  id: number;
  owner: TestUser;
  ownerTeamKey: Key;
  ownerPersonal: Key;
  reader: TestUser;
  readerTeamKey: Key;
  member: TestUser;
  memberTeamKey: Key;
}

function contract(
  id: number,
  userId: number,
  teamId: number | null,
  n: number,
  amount: string,
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    user_id: userId,
    ...(teamId === null ? {} : { team_id: teamId }),
    kind: 'instance',
    start: day(n) + 3600,
    end: day(n) + 7200,
    ...extra,
    charges: [{ day: day(n), type: 'gpu', quantity: '1', unit: 'hours', rate: amount, amount }],
  };
}

const selectFilters = (gte = day(0), lte = day(9)) =>
  encodeURIComponent(JSON.stringify({ day: { gte, lte } }));

describe('team ownership of contracts: the charges report, export and statement', () => {
  let api: TestApi;
  let db: DataSource;
  let a: Team;
  let b: Team;
  const users: number[] = [];

  async function newTeam(name: string): Promise<Team> {
    const owner = await createTestUser(api);
    const created = await vastai(api, owner, 'post', '/api/v0/team/', { team_name: name });
    const id = created.body.team_id as number;
    const ownerTeamKey = { apiKey: owner.apiKey };
    const role = await vastai(api, ownerTeamKey, 'post', '/api/v0/team/roles/', {
      name: 'billing-reader',
      permissions: { api: { billing_read: {}, team_read: {} } },
    });
    expect(role.status).toBe(200);
    const join = async (roleName: string) => {
      const user = await createTestUser(api);
      await db.query(`INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)`, [id, user.id]);
      const set = await vastai(api, ownerTeamKey, 'put', `/api/v0/team/members/${user.id}/`, {
        role: roleName,
      });
      expect(set.status).toBe(200);
      const key = await vastai(api, user, 'post', `/api/v0/team/${id}/apikeys/`, {});
      return { user, key: { apiKey: key.body.key as string } };
    };
    const reader = await join('billing-reader');
    const member = await join('member');
    users.push(owner.id, reader.user.id, member.user.id);
    return {
      id,
      owner,
      ownerTeamKey,
      ownerPersonal: { apiKey: created.body.personal_api_key.key },
      reader: reader.user,
      readerTeamKey: reader.key,
      member: member.user,
      memberTeamKey: member.key,
    };
  }

  beforeAll(async () => {
    api = await startApi();
    db = api.app.get(DataSource);
    a = await newTeam('billing-a');
    b = await newTeam('billing-b');
    await loadFixtures(api, {
      contracts: [
        // Team A's, made by its owner and by its reader; two under endpoint 501.
        contract(790_001, a.owner.id, a.id, 1, '1'),
        contract(790_002, a.reader.id, a.id, 2, '2'),
        contract(790_003, a.owner.id, a.id, 3, '4'),
        contract(790_004, a.reader.id, a.id, 4, '8', { endpoint_id: 501 }),
        contract(790_005, a.owner.id, a.id, 5, '16', { endpoint_id: 501 }),
        // A's owner's and A's reader's own, outside the team (one under endpoint 501 too).
        contract(790_010, a.owner.id, null, 2, '32', { endpoint_id: 501 }),
        contract(790_011, a.reader.id, null, 3, '64'),
        // Team B's.
        contract(790_020, b.owner.id, b.id, 2, '128'),
      ],
    });
  });

  afterAll(async () => {
    await cleanBilling(db, IDS, [...users, -a.id, -b.id]);
    await api.close();
  });

  const report = (key: Key, query: string) =>
    vastai(api, key, 'get', `/api/v0/charges/?select_filters=${selectFilters()}&${query}`);

  /** Every page of a walk, `limit` entries at a time: the sources and each page's total. */
  async function walk(key: Key, format: 'table' | 'tree', limit = 2) {
    const sources: string[] = [];
    const totals: number[] = [];
    let token: string | null = null;
    do {
      const after: string = token ? `&after_token=${encodeURIComponent(token)}` : '';
      const page = await report(key, `format=${format}&limit=${limit}${after}`);
      expect(page.status).toBe(200);
      sources.push(
        ...(page.body.results as Array<{ source: string }>).map((entry) => entry.source),
      );
      totals.push(page.body.total as number);
      token = page.body.next_token as string | null;
    } while (token);
    return { sources, totals };
  }

  const TEAM_A_TABLE = [
    'instance-790005',
    'instance-790004',
    'instance-790003',
    'instance-790002',
    'instance-790001',
  ];

  it("shows the team's contracts in its context to every member allowed billing_read, in pages", async () => {
    for (const key of [a.ownerTeamKey, a.readerTeamKey]) {
      const table = await walk(key, 'table');
      expect(table.sources).toEqual(TEAM_A_TABLE);
      expect(table.totals).toEqual([5, 5, 5]);
      // The team's endpoint-501 wrapper holds the team's two contracts, not the owner's own.
      const tree = await walk(key, 'tree');
      expect(tree.sources).toEqual([
        'endpoint-501',
        'instance-790003',
        'instance-790002',
        'instance-790001',
      ]);
      const wrapper = (await report(key, 'format=tree&limit=1')).body.results[0];
      expect(wrapper).toMatchObject({
        source: 'endpoint-501',
        amount: 24,
        description: 'Endpoint 501 Charges - 2 contracts',
      });
    }
  });

  it("keeps the personal context to the user's own contracts, and another team to its own (BOLA)", async () => {
    expect((await walk(a.ownerPersonal, 'table')).sources).toEqual(['instance-790010']);
    const ownerTree = await report(a.ownerPersonal, 'format=tree');
    expect(ownerTree.body.results).toEqual([
      expect.objectContaining({
        source: 'endpoint-501',
        amount: 32,
        description: 'Endpoint 501 Charges - 1 contract',
      }),
    ]);
    expect((await walk(a.reader, 'table')).sources).toEqual(['instance-790011']);
    expect((await walk(b.ownerTeamKey, 'table')).sources).toEqual(['instance-790020']);
    expect((await walk(b.readerTeamKey, 'tree')).sources).toEqual(['instance-790020']);
    // A page token of the team's walk continues no other context's walk.
    const first = await report(a.readerTeamKey, 'format=table&limit=2');
    const token = encodeURIComponent(first.body.next_token as string);
    for (const key of [a.reader, a.ownerPersonal, b.readerTeamKey]) {
      const refused = await report(key, `format=table&limit=2&after_token=${token}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        error: 'invalid_token',
        msg: 'Invalid pagination token',
      });
    }
  });

  it("exports the context's charge lines: the team's, the user's own, another team's", async () => {
    const exported = async (key: Key) => {
      const response = await exportAsText(
        api,
        { Authorization: `Bearer ${key.apiKey}` },
        `select_filters=${selectFilters()}&format=ndjson`,
      );
      expect(response.status).toBe(200);
      return (response.body as string)
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { contract_id: number }).contract_id)
        .sort();
    };
    expect(await exported(a.readerTeamKey)).toEqual([790_001, 790_002, 790_003, 790_004, 790_005]);
    expect(await exported(a.ownerPersonal)).toEqual([790_010]);
    expect(await exported(a.reader)).toEqual([790_011]);
    expect(await exported(b.ownerTeamKey)).toEqual([790_020]);
  });

  it("sums the context's charges in the statement", async () => {
    const total = async (key: Key) => {
      const response = await vastai(
        api,
        key,
        'get',
        `/api/v0/charges/summary/?select_filters=${selectFilters()}&period=month`,
      );
      expect(response.status).toBe(200);
      return response.body.amount as number;
    };
    expect(await total(a.ownerTeamKey)).toBe(31);
    expect(await total(a.readerTeamKey)).toBe(31);
    expect(await total(a.ownerPersonal)).toBe(32);
    expect(await total(a.reader)).toBe(64);
    expect(await total(b.readerTeamKey)).toBe(128);
  });

  it('refuses a member whose role does not allow billing_read, on the report, export and statement', async () => {
    for (const path of [
      '/api/v0/charges/',
      '/api/v0/charges/export/',
      '/api/v0/charges/summary/',
    ]) {
      const refused = await vastai(
        api,
        a.memberTeamKey,
        'get',
        `${path}?select_filters=${selectFilters()}`,
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, error: 'permission_denied' });
    }
    // The same member, in their personal context, reads their own (none).
    const own = await vastai(
      api,
      a.member,
      'get',
      `/api/v0/charges/?select_filters=${selectFilters()}`,
    );
    expect(own.body).toMatchObject({ total: 0, results: [] });
  });
});
