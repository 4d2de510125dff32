import { ManualClock } from '@app/platform/testing';
import { autoscalingKit } from '../testing/autoscaling-kit';
import { InMemoryEndpointGroupRepository } from '../testing/in-memory-endpoint-groups';
import { CreateEndpointGroupUseCase } from './create-endpoint-group.use-case';
import { UpdateEndpointGroupUseCase } from './update-endpoint-group.use-case';

describe('UpdateEndpointGroupUseCase', () => {
  const OWNER = 7;
  const STRANGER = 8;
  let repository: InMemoryEndpointGroupRepository;
  let clock: ManualClock;
  let create: CreateEndpointGroupUseCase;
  let update: UpdateEndpointGroupUseCase;

  beforeEach(() => {
    const kit = autoscalingKit();
    ({ repository, clock, create } = kit);
    update = new UpdateEndpointGroupUseCase(repository, kit.uow, clock);
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

  it("answers someone else's group like a missing one, and leaves it alone", async () => {
    const id = await create.execute({ userId: OWNER, options: {} });
    for (const [userId, groupId] of [
      [STRANGER, id],
      [OWNER, 424242],
    ]) {
      await expect(
        update.execute({ userId, groupId, options: { minLoad: 1 } }),
      ).rejects.toMatchObject({
        code: 'endpoint_group_not_found',
        message: `Endpoint group ${groupId} not found`,
      });
    }
    expect(repository.rows.get(id)!.options.minLoad).toBe(0);
  });
});
