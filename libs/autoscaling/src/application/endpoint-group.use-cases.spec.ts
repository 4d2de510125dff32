import { DomainError } from '@app/platform';
import {
  InlineUnitOfWork,
  ManualClock,
  SeededRandomSource,
  testSecretKeeper,
} from '@app/platform/testing';
import { InMemoryEndpointGroupRepository } from '../testing/in-memory-endpoint-groups';
import { CreateEndpointGroupUseCase } from './create-endpoint-group.use-case';
import { DeleteEndpointGroupUseCase } from './delete-endpoint-group.use-case';
import { EndpointGroupKeys } from './endpoint-group-key';
import { ListEndpointGroupsUseCase } from './list-endpoint-groups.use-case';
import { UpdateEndpointGroupUseCase } from './update-endpoint-group.use-case';

describe('endpoint group use cases', () => {
  const OWNER = 7;
  const STRANGER = 8;
  let repository: InMemoryEndpointGroupRepository;
  let clock: ManualClock;
  let create: CreateEndpointGroupUseCase;
  let list: ListEndpointGroupsUseCase;
  let update: UpdateEndpointGroupUseCase;
  let remove: DeleteEndpointGroupUseCase;

  beforeEach(() => {
    repository = new InMemoryEndpointGroupRepository();
    clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const uow = new InlineUnitOfWork();
    const keys = new EndpointGroupKeys(new SeededRandomSource(), testSecretKeeper());
    create = new CreateEndpointGroupUseCase(repository, keys, uow, clock);
    list = new ListEndpointGroupsUseCase(repository, keys);
    update = new UpdateEndpointGroupUseCase(repository, uow, clock);
    remove = new DeleteEndpointGroupUseCase(repository);
  });

  it('creates an active group with defaults and its own encrypted worker key', async () => {
    const first = await create.execute({ userId: OWNER, options: { endpointName: 'shared' } });
    const second = await create.execute({ userId: OWNER, options: { endpointName: 'shared' } });
    expect(second).not.toBe(first);
    const [a, b] = await list.execute(OWNER);
    expect(a.group).toMatchObject({
      id: first,
      userId: OWNER,
      state: 'active',
      createdAt: clock.now(),
    });
    expect(a.group.options).toMatchObject({ endpointName: 'shared', maxWorkers: 20 });
    expect(a.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.apiKey).not.toBe(a.apiKey);
    const stored = repository.rows.get(first)!;
    expect(stored.apiKeyCiphertext).not.toContain(a.apiKey!);
  });

  it('binds the key ciphertext to its group: moved to another row it does not decrypt', async () => {
    const first = await create.execute({ userId: OWNER, options: {} });
    const second = await create.execute({ userId: OWNER, options: {} });
    repository.rows.set(second, {
      ...repository.rows.get(second)!,
      apiKeyCiphertext: repository.rows.get(first)!.apiKeyCiphertext,
    });
    const rows = await list.execute(OWNER);
    expect(rows.find((row) => row.group.id === second)!.apiKey).toBeNull();
  });

  it('refuses invalid options without storing anything', async () => {
    await expect(
      create.execute({ userId: OWNER, options: { coldWorkers: 30 } }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
    expect(repository.rows.size).toBe(0);
  });

  it("lists only the caller's groups", async () => {
    await create.execute({ userId: OWNER, options: {} });
    await create.execute({ userId: STRANGER, options: {} });
    expect((await list.execute(OWNER)).map((row) => row.group.userId)).toEqual([OWNER]);
  });

  it('merges an update and re-validates the whole', async () => {
    const id = await create.execute({ userId: OWNER, options: { maxWorkers: 10 } });
    clock.advance(1000);
    await update.execute({
      userId: OWNER,
      groupId: id,
      options: { minLoad: 4 },
      state: 'suspended',
    });
    expect(repository.rows.get(id)).toMatchObject({
      state: 'suspended',
      updatedAt: clock.now(),
      options: { minLoad: 4, maxWorkers: 10, coldWorkers: 5 },
    });
    await expect(
      update.execute({ userId: OWNER, groupId: id, options: { maxWorkers: 4 } }),
    ).rejects.toMatchObject({ code: 'invalid_args' });
    expect(repository.rows.get(id)!.options.maxWorkers).toBe(10);
  });

  it('writes nothing for an update that changes nothing (all nulls, or the current values)', async () => {
    const id = await create.execute({ userId: OWNER, options: { maxWorkers: 10 } });
    const before = repository.rows.get(id)!;
    clock.advance(1000);
    await update.execute({ userId: OWNER, groupId: id, options: {} });
    await update.execute({
      userId: OWNER,
      groupId: id,
      options: { maxWorkers: 10 },
      state: 'active',
    });
    expect(repository.rows.get(id)).toBe(before);
    await update.execute({ userId: OWNER, groupId: id, options: {}, state: 'stopped' });
    expect(repository.rows.get(id)).toMatchObject({ state: 'stopped', updatedAt: clock.now() });
  });

  it("answers someone else's group like a missing one, on update and delete", async () => {
    const id = await create.execute({ userId: OWNER, options: {} });
    for (const attempt of [
      update.execute({ userId: STRANGER, groupId: id, options: { minLoad: 1 } }),
      remove.execute({ userId: STRANGER, groupId: id }),
      remove.execute({ userId: OWNER, groupId: 424242 }),
    ]) {
      await expect(attempt).rejects.toBeInstanceOf(DomainError);
      await attempt.catch((error: DomainError) =>
        expect(error.code).toBe('endpoint_group_not_found'),
      );
    }
    expect(repository.rows.get(id)!.options.minLoad).toBe(0);
  });

  it("deletes the owner's group once", async () => {
    const id = await create.execute({ userId: OWNER, options: {} });
    await remove.execute({ userId: OWNER, groupId: id });
    expect(repository.rows.has(id)).toBe(false);
    await expect(remove.execute({ userId: OWNER, groupId: id })).rejects.toMatchObject({
      code: 'endpoint_group_not_found',
    });
  });
});
