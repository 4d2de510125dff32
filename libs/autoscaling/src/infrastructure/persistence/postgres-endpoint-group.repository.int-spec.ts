import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, TransactionalEntityManager, TypeormUnitOfWork } from '@app/platform';
import { ManualClock, SeededRandomSource, testSecretKeeper } from '@app/platform/testing';
import { CreateEndpointGroupUseCase } from '../../application/create-endpoint-group.use-case';
import { EndpointGroupKeys } from '../../application/endpoint-group-keys.service';
import { UpdateEndpointGroupUseCase } from '../../application/update-endpoint-group.use-case';
import { DEFAULT_ENDPOINT_GROUP_OPTIONS } from '../../domain/endpoint-group';
import { endpointGroupRepositoryContract } from '../../testing/endpoint-group-repository.contract';
import { PostgresEndpointGroupRepository } from './postgres-endpoint-group.repository';

// Group ids owned by this file (the endpoint groups range is 40000-49999).
const FIXTURE_ID = 49001;
const CONTRACT_FIXTURE_ID = 49002;

describe('endpoint group persistence (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let repository: PostgresEndpointGroupRepository;
  let create: CreateEndpointGroupUseCase;
  let update: UpdateEndpointGroupUseCase;
  let ownerId: number;
  let strangerId: number;
  let teamId: number;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions(process.env.DATABASE_URL!)).initialize();
    const tx = new TransactionalEntityManager(dataSource);
    const uow = new TypeormUnitOfWork(tx);
    const clock = new ManualClock();
    repository = new PostgresEndpointGroupRepository(tx);
    const keys = new EndpointGroupKeys(new SeededRandomSource(), testSecretKeeper());
    create = new CreateEndpointGroupUseCase(repository, keys, uow, clock);
    update = new UpdateEndpointGroupUseCase(repository, uow, clock);
    const insertUser = async () =>
      (
        await dataSource.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [
          `autoscaling-int-${randomUUID()}@example.test`,
        ])
      )[0].id as number;
    ownerId = await insertUser();
    strangerId = await insertUser();
    teamId = (await dataSource.query(`INSERT INTO teams (name) VALUES ('autoscaling-int') RETURNING id`))[0]
      .id as number;
  });

  // The users' groups go with them (ON DELETE CASCADE).
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [[ownerId, strangerId]]);
    await dataSource.query(`DELETE FROM teams WHERE id = $1`, [teamId]);
    await dataSource.destroy();
  });

  describe('the repository contract', () => {
    endpointGroupRepositoryContract(async () => ({
      repository,
      owner: ownerId,
      stranger: strangerId,
      fixtureId: CONTRACT_FIXTURE_ID,
      teamId,
    }));
  });

  it('stores every option exactly, with generated ids from 1,000,000', async () => {
    const id = await create.execute({
      userId: ownerId,
      options: { minLoad: 10.25, targetUtil: 0.9, endpointName: 'int-shared', coldMult: 2.5 },
    });
    expect(id).toBeGreaterThanOrEqual(1_000_000);
    const [stored] = (await repository.listByUser(ownerId)).filter((group) => group.id === id);
    expect(stored.options).toEqual({
      ...DEFAULT_ENDPOINT_GROUP_OPTIONS,
      minLoad: 10.25,
      endpointName: 'int-shared',
    });
    expect(stored.state).toBe('active');
    expect(stored.apiKeyCiphertext).toEqual(expect.any(String));
  });

  it('keeps both of two concurrent partial updates (row lock, merge on the fresh row)', async () => {
    const id = await create.execute({ userId: ownerId, options: {} });
    await Promise.all([
      update.execute({ userId: ownerId, groupId: id, options: { minLoad: 7 } }),
      update.execute({ userId: ownerId, groupId: id, options: { coldMult: 4 } }),
      update.execute({ userId: ownerId, groupId: id, options: {}, state: 'stopped' }),
    ]);
    const group = await repository.findById(id);
    expect(group!.options).toMatchObject({ minLoad: 7, coldMult: 4 });
    expect(group!.state).toBe('stopped');
  });

  it("finds and deletes only the owner's group", async () => {
    const id = await create.execute({ userId: ownerId, options: {} });
    expect(await repository.findOwnedForUpdate(id, strangerId)).toBeNull();
    expect(await repository.deleteOwned(id, strangerId)).toBe(false);
    expect(await repository.deleteOwned(id, ownerId)).toBe(true);
    expect(await repository.findById(id)).toBeNull();
    expect(await repository.findOwnedForUpdate(2 ** 31, ownerId)).toBeNull();
    expect(await repository.deleteOwned(2 ** 53, ownerId)).toBe(false);
  });

  it('refuses, at the database too, options the API would refuse', async () => {
    await expect(
      repository.insert({
        id: await repository.nextId(),
        userId: ownerId,
        options: { ...DEFAULT_ENDPOINT_GROUP_OPTIONS, coldWorkers: 9, maxWorkers: 3 },
        state: 'active',
        apiKeyCiphertext: 'x',
        createdAt: new Date(),
      }),
    ).rejects.toThrow(/check constraint/);
  });

  it('upserts fixtures on the explicit id', async () => {
    const seed = {
      id: FIXTURE_ID,
      userId: ownerId,
      options: { ...DEFAULT_ENDPOINT_GROUP_OPTIONS },
      state: 'active' as const,
      apiKeyCiphertext: 'first',
      createdAt: new Date(0),
    };
    await repository.upsert(seed);
    await repository.upsert({
      ...seed,
      state: 'suspended',
      apiKeyCiphertext: 'second',
      options: { ...seed.options, maxWorkers: 3, coldWorkers: 1 },
    });
    const group = await repository.findById(FIXTURE_ID);
    expect(group).toMatchObject({ state: 'suspended', apiKeyCiphertext: 'second' });
    expect(group!.options).toMatchObject({ maxWorkers: 3, coldWorkers: 1 });
  });
});
