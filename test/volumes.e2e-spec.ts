import { DataSource } from 'typeorm';
import { createTestUser, loadFixtures, startApi, TestApi, TestUser } from '@test/support/api';

/** Listing ids owned by this file (volumes fixture range 30000-39999). */
const LISTING = {
  owned: 30001,
  ownedNoSlash: 30002,
  rented: 30003,
  foreign: 30004,
  idempotent: 30005,
  alreadyUnlisted: 30006,
  repeated: 30007,
  unlistedButRented: 30008,
  rateLimited: 30010,
  fixture: 30020,
};

describe('volumes: POST /api/v0/volumes/unlist', () => {
  let api: TestApi;
  let host: TestUser;
  let other: TestUser;

  const unlist = (user: TestUser | null, body: unknown, path = '/api/v0/volumes/unlist/') => {
    const call = api.http().post(path);
    if (user) call.set(user.auth);
    return call.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  const statusOf = async (id: number): Promise<string> => {
    const [row] = await api.app
      .get(DataSource)
      .query(`SELECT status FROM volume_listings WHERE id = $1`, [id]);
    return row.status;
  };

  const timesOf = (id: number): Promise<Array<{ unlisted_at: Date | null; updated_at: Date }>> =>
    api.app
      .get(DataSource)
      .query(`SELECT unlisted_at, updated_at FROM volume_listings WHERE id = $1`, [id]);

  const auditOf = (id: number): Promise<Array<Record<string, unknown>>> =>
    api.app.get(DataSource).query(
      `SELECT actor_user_id, previous_status, new_status, occurred_at
           FROM volume_listing_audit WHERE listing_id = $1 ORDER BY id`,
      [id],
    );

  beforeAll(async () => {
    api = await startApi();
    host = await createTestUser(api);
    other = await createTestUser(api);
    const listing = (id: number, owner: TestUser, extra: Record<string, unknown> = {}) => ({
      id,
      owner_id: owner.id,
      machine_id: 7001,
      size_gb: 500,
      price_per_gb_month: '0.15',
      status: 'listed',
      active_rentals: 0,
      ...extra,
    });
    await api.app
      .get(DataSource)
      .query(`DELETE FROM volume_listing_audit WHERE listing_id = ANY($1)`, [
        Object.values(LISTING),
      ]);
    await loadFixtures(api, {
      volume_listings: [
        listing(LISTING.owned, host),
        listing(LISTING.ownedNoSlash, host),
        listing(LISTING.rented, host, { active_rentals: 2 }),
        listing(LISTING.foreign, other),
        listing(LISTING.idempotent, host),
        listing(LISTING.alreadyUnlisted, host, { status: 'unlisted' }),
        listing(LISTING.repeated, host),
        listing(LISTING.unlistedButRented, host, { status: 'unlisted', active_rentals: 1 }),
      ],
    });
  });

  afterAll(() => api.close());

  it("unlists the caller's listing with the exact body the public client sends", async () => {
    // Python's json.dumps separators, exactly as `vastai unlist volume 30001` sends it.
    const response = await api
      .http()
      .post('/api/v0/volumes/unlist')
      .set(host.auth)
      .set('User-Agent', 'vastai-cli/0.0.0')
      .set('Content-Type', 'application/json')
      .send(`{"id": ${LISTING.owned}}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, msg: `Unlisted Volume ${LISTING.owned}.` });
    expect(await statusOf(LISTING.owned)).toBe('unlisted');
  });

  it('serves the path without trailing slash (as the client sends it), without a redirect', async () => {
    const response = await unlist(host, { id: LISTING.ownedNoSlash }, '/api/v0/volumes/unlist');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      msg: `Unlisted Volume ${LISTING.ownedNoSlash}.`,
    });
    expect(await statusOf(LISTING.ownedNoSlash)).toBe('unlisted');
  });

  it('records who unlisted and when, durably', async () => {
    const before = Date.now();
    await unlist(host, { id: LISTING.idempotent }).expect(200);
    const entries = await auditOf(LISTING.idempotent);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_user_id: host.id,
      previous_status: 'listed',
      new_status: 'unlisted',
    });
    const occurredAt = (entries[0].occurred_at as Date).getTime();
    expect(occurredAt).toBeGreaterThanOrEqual(before);
    expect(occurredAt).toBeLessThanOrEqual(Date.now());
    // The listing itself carries the same moment.
    const [times] = await timesOf(LISTING.idempotent);
    expect(times.unlisted_at!.getTime()).toBe(occurredAt);
    expect(times.updated_at.getTime()).toBe(occurredAt);
  });

  it('succeeds again on an already unlisted listing (idempotent)', async () => {
    const response = await unlist(host, { id: LISTING.alreadyUnlisted });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      msg: `Unlisted Volume ${LISTING.alreadyUnlisted}.`,
    });
    expect(await statusOf(LISTING.alreadyUnlisted)).toBe('unlisted');
  });

  it('answers a repeated unlist like the first, keeps the first unlist time and audits both', async () => {
    const first = await unlist(host, { id: LISTING.repeated }, '/api/v0/volumes/unlist');
    const [afterFirst] = await timesOf(LISTING.repeated);
    const second = await unlist(host, { id: LISTING.repeated }, '/api/v0/volumes/unlist');
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, msg: `Unlisted Volume ${LISTING.repeated}.` });
    }
    expect(afterFirst.unlisted_at).toBeInstanceOf(Date);
    expect(await timesOf(LISTING.repeated)).toEqual([afterFirst]);
    const entries = await auditOf(LISTING.repeated);
    expect(entries.map((entry) => [entry.actor_user_id, entry.previous_status])).toEqual([
      [host.id, 'listed'],
      [host.id, 'unlisted'],
    ]);
  });

  it('succeeds for an unlisted listing that still has rentals (nothing left to refuse)', async () => {
    const response = await unlist(host, { id: LISTING.unlistedButRented });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      msg: `Unlisted Volume ${LISTING.unlistedButRented}.`,
    });
  });

  it('answers 400 with the exact message when id is missing', async () => {
    for (const body of [{}, { id: null }, { volume_id: LISTING.owned }]) {
      const response = await unlist(host, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        msg: 'You must pass in `id` in the body of the request',
      });
    }
  });

  it('answers 400 when id is not a positive integer', async () => {
    for (const id of [0, -3, 1.5, '30001', true, [30001], { id: 1 }]) {
      const response = await unlist(host, { id });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'bad_request',
        msg: '`id` must be a positive integer',
      });
    }
  });

  it("answers an unknown listing and another user's listing identically, changing nothing", async () => {
    const foreign = await unlist(host, { id: LISTING.foreign });
    const foreignNoSlash = await unlist(host, { id: LISTING.foreign }, '/api/v0/volumes/unlist');
    const unknown = await unlist(host, { id: 39999 });
    const huge = await unlist(host, { id: 2 ** 40 });
    for (const response of [foreign, foreignNoSlash, unknown, huge]) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: 'volume_listing_not_found',
        msg: 'Volume listing does not exist',
      });
    }
    expect(await statusOf(LISTING.foreign)).toBe('listed');
    expect(await auditOf(LISTING.foreign)).toHaveLength(0);
  });

  it('lets the owner unlist what another user could not', async () => {
    const response = await unlist(other, { id: LISTING.foreign });
    expect(response.status).toBe(200);
    expect(response.body.msg).toBe(`Unlisted Volume ${LISTING.foreign}.`);
  });

  it('refuses a listing with active rentals and keeps it listed', async () => {
    const response = await unlist(host, { id: LISTING.rented });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'volume_listing_active',
      msg: 'Unable to delete active volume listing',
    });
    expect(await statusOf(LISTING.rented)).toBe('listed');
    expect(await auditOf(LISTING.rented)).toHaveLength(0);
  });

  it('loads volume_listings fixtures strictly: unknown fields, reserved ids and inexact prices fail', async () => {
    const row = {
      id: LISTING.fixture,
      owner_id: host.id,
      machine_id: 7002,
      size_gb: 250,
      price_per_gb_month: 0.125,
    };
    await loadFixtures(api, { volume_listings: [row] });
    const [stored] = await api.app
      .get(DataSource)
      .query(`SELECT * FROM volume_listings WHERE id = $1`, [LISTING.fixture]);
    expect(stored).toMatchObject({
      owner_id: host.id,
      machine_id: 7002,
      size_gb: 250,
      price_per_gb_month: '0.125000',
      status: 'listed',
      active_rentals: 0,
      unlisted_at: null,
    });
    for (const bad of [
      { ...row, active_rental: 1 },
      { ...row, id: 1_000_000 },
      { ...row, price_per_gb_month: '0.1234567' },
      { ...row, price_per_gb_month: '123456789' },
      { ...row, status: 'hidden' },
      { ...row, size_gb: 0 },
      { ...row, active_rentals: -1 },
    ]) {
      await expect(loadFixtures(api, { volume_listings: [bad] })).rejects.toMatchObject({
        code: 'bad_request',
      });
    }
    const [unchanged] = await api.app
      .get(DataSource)
      .query(`SELECT * FROM volume_listings WHERE id = $1`, [LISTING.fixture]);
    expect(unchanged).toEqual(stored);
  });

  it('requires authentication', async () => {
    const response = await unlist(null, { id: LISTING.owned });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: 'auth_error',
      msg: 'This action requires login.',
    });
  });

  it('is described in the OpenAPI document', async () => {
    const response = await api.http().get('/api/v0/openapi.json');
    expect(response.body.paths['/api/v0/volumes/unlist']).toHaveProperty('post');
  });
});

describe('volumes: unlist rate limit', () => {
  const LIMITED = LISTING.rateLimited;
  let api: TestApi;
  let host: TestUser;
  let other: TestUser;

  const unlist = (user: TestUser, id: number, path: string) =>
    api
      .http()
      .post(path)
      .set(user.auth)
      .set('Content-Type', 'application/json')
      .send(`{"id": ${id}}`);

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: 'on' });
    host = await createTestUser(api);
    other = await createTestUser(api);
    const dataSource = api.app.get(DataSource);
    await dataSource.query(`DELETE FROM volume_listing_audit WHERE listing_id = $1`, [LIMITED]);
    await loadFixtures(api, {
      volume_listings: [
        { id: LIMITED, owner_id: host.id, machine_id: 7003, size_gb: 10, status: 'listed' },
      ],
    });
  });

  afterAll(() => api.close());

  it('answers a second call within 5.0 s with 429 and the detail body, changing nothing', async () => {
    // Every request counts, a refused one too; both slash variants share one limit.
    const first = await unlist(host, 39998, '/api/v0/volumes/unlist/');
    expect(first.status).toBe(400);
    const second = await unlist(host, LIMITED, '/api/v0/volumes/unlist');
    expect(second.status).toBe(429);
    expect(second.body).toEqual({ detail: 'API requests too frequent endpoint threshold=5.0' });
    const dataSource = api.app.get(DataSource);
    const [listing] = await dataSource.query(`SELECT status FROM volume_listings WHERE id = $1`, [
      LIMITED,
    ]);
    expect(listing.status).toBe('listed');
    const audit = await dataSource.query(
      `SELECT 1 FROM volume_listing_audit WHERE listing_id = $1`,
      [LIMITED],
    );
    expect(audit).toHaveLength(0);
  });

  it("does not limit another user by the first user's requests", async () => {
    const response = await unlist(other, 39998, '/api/v0/volumes/unlist');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: 'volume_listing_not_found',
      msg: 'Volume listing does not exist',
    });
  });
});
