import {
  EndpointGroupRepository,
  NewEndpointGroup,
} from '../application/ports/endpoint-group.repository.port';
import { DEFAULT_ENDPOINT_GROUP_OPTIONS } from '../domain/endpoint-group';

/** What the contract runs against: a repository and two users. */
export interface EndpointGroupRepositorySubject {
  repository: EndpointGroupRepository;
  owner: number;
  stranger: number;
  /** An explicit id below the generated range that belongs to this suite (fixtures). */
  fixtureId: number;
  /** A team (existing, where teams are rows) whose members the owner and stranger both are. */
  teamId: number;
}

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL, so
 * the fake the use-case tests rely on keeps to what the real repository does
 * (docs/architecture.md "Where do tests go?").
 */
export function endpointGroupRepositoryContract(
  setup: () => Promise<EndpointGroupRepositorySubject>,
): void {
  let subject: EndpointGroupRepositorySubject;
  let repository: EndpointGroupRepository;

  beforeAll(async () => {
    subject = await setup();
    repository = subject.repository;
  });

  async function newGroup(overrides: Partial<NewEndpointGroup> = {}): Promise<NewEndpointGroup> {
    return {
      id: await repository.nextId(),
      userId: subject.owner,
      options: { ...DEFAULT_ENDPOINT_GROUP_OPTIONS },
      state: 'active',
      apiKeyCiphertext: 'ciphertext',
      createdAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
      ...overrides,
    };
  }

  it('reserves distinct ids from 1,000,000 up', async () => {
    const first = await repository.nextId();
    const second = await repository.nextId();
    expect(first).toBeGreaterThanOrEqual(1_000_000);
    expect(second).toBeGreaterThan(first);
  });

  it('stores a group exactly: every option, state, key ciphertext and time', async () => {
    const group = await newGroup({
      options: {
        ...DEFAULT_ENDPOINT_GROUP_OPTIONS,
        minLoad: 10.25,
        targetUtil: 0.125,
        coldMult: 2.75,
        endpointName: 'meta/llama-3.1:8b',
        inactivityTimeout: 0,
      },
      state: 'suspended',
      apiKeyCiphertext: 'sealed-key',
    });
    await repository.insert(group);
    const { id, userId, options, state, apiKeyCiphertext, createdAt } = group;
    expect(await repository.findById(group.id)).toEqual({
      id,
      userId,
      teamId: null,
      options,
      state,
      apiKeyCiphertext,
      createdAt,
      updatedAt: createdAt,
    });
  });

  it('refuses a second insert of one id', async () => {
    const group = await newGroup();
    await repository.insert(group);
    await expect(repository.insert(group)).rejects.toThrow();
  });

  it("lists a user's groups only, oldest first", async () => {
    const mine = [await newGroup(), await newGroup()];
    const theirs = await newGroup({ userId: subject.stranger });
    for (const group of [mine[1], theirs, mine[0]]) await repository.insert(group);
    const listed = (await repository.listByUser(subject.owner)).map((group) => group.id);
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    expect(listed).toEqual(expect.arrayContaining(mine.map((group) => group.id)));
    expect(listed).not.toContain(theirs.id);
  });

  it('finds a group for its owner only; an id no group can have is simply not found', async () => {
    const group = await newGroup();
    await repository.insert(group);
    expect(await repository.findOwnedForUpdate(group.id, subject.owner)).toMatchObject({
      id: group.id,
    });
    expect(await repository.findOwnedForUpdate(group.id, subject.stranger)).toBeNull();
    for (const id of [0, -1, 1.5, 2 ** 31, 2 ** 53]) {
      expect(await repository.findOwnedForUpdate(id, subject.owner)).toBeNull();
      expect(await repository.findById(id)).toBeNull();
    }
  });

  it("a team's group is the team's: any member finds it in the team, nobody in a personal context", async () => {
    const teams = await newGroup({ teamId: subject.teamId });
    const personal = await newGroup();
    await repository.insert(teams);
    await repository.insert(personal);
    const inTeam = (await repository.listByUser(subject.stranger, subject.teamId)).map((g) => g.id);
    expect(inTeam).toContain(teams.id);
    expect(inTeam).not.toContain(personal.id);
    expect((await repository.listByUser(subject.owner)).map((g) => g.id)).not.toContain(teams.id);
    expect(await repository.findOwnedForUpdate(teams.id, subject.owner)).toBeNull();
    expect(await repository.findOwnedForUpdate(personal.id, subject.owner, subject.teamId)).toBeNull();
    expect(await repository.findOwnedForUpdate(teams.id, subject.stranger, subject.teamId)).toMatchObject({
      id: teams.id,
      userId: subject.owner,
      teamId: subject.teamId,
    });
    expect(await repository.deleteOwned(teams.id, subject.owner)).toBe(false);
    expect(await repository.deleteOwned(teams.id, subject.stranger, subject.teamId)).toBe(true);
  });

  it('updates the options, the state and the update time', async () => {
    const group = await newGroup();
    await repository.insert(group);
    const updatedAt = new Date(group.createdAt.getTime() + 60_000);
    const options = { ...group.options, maxWorkers: 3, coldWorkers: 1, endpointName: null };
    await repository.update(group.id, { options, state: 'stopped', updatedAt });
    expect(await repository.findById(group.id)).toMatchObject({
      options,
      state: 'stopped',
      createdAt: group.createdAt,
      updatedAt,
    });
  });

  it('deletes a group for its owner only, once', async () => {
    const group = await newGroup();
    await repository.insert(group);
    expect(await repository.deleteOwned(group.id, subject.stranger)).toBe(false);
    expect(await repository.deleteOwned(group.id, subject.owner)).toBe(true);
    expect(await repository.findById(group.id)).toBeNull();
    expect(await repository.deleteOwned(group.id, subject.owner)).toBe(false);
    expect(await repository.deleteOwned(2 ** 53, subject.owner)).toBe(false);
  });

  it('creates a group with an explicit id, then replaces it on the same id', async () => {
    const seed = await newGroup({ id: subject.fixtureId, apiKeyCiphertext: 'first' });
    await repository.upsert(seed);
    expect(await repository.findById(seed.id)).toMatchObject({ state: 'active' });
    await repository.upsert({
      ...seed,
      userId: subject.stranger,
      state: 'suspended',
      apiKeyCiphertext: 'second',
      options: { ...seed.options, maxWorkers: 3, coldWorkers: 1 },
    });
    const group = await repository.findById(seed.id);
    expect(group).toMatchObject({
      userId: subject.stranger,
      state: 'suspended',
      apiKeyCiphertext: 'second',
      createdAt: seed.createdAt,
    });
    expect(group!.options).toMatchObject({ maxWorkers: 3, coldWorkers: 1 });
  });
}
