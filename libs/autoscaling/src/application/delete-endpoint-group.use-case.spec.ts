import { autoscalingKit } from '../testing/autoscaling-kit';
import { InMemoryEndpointGroupRepository } from '../testing/in-memory-endpoint-groups';
import { CreateEndpointGroupUseCase } from './create-endpoint-group.use-case';
import { DeleteEndpointGroupUseCase } from './delete-endpoint-group.use-case';

describe('DeleteEndpointGroupUseCase', () => {
  const OWNER = 7;
  const STRANGER = 8;
  let repository: InMemoryEndpointGroupRepository;
  let create: CreateEndpointGroupUseCase;
  let remove: DeleteEndpointGroupUseCase;

  beforeEach(() => {
    ({ repository, create } = autoscalingKit());
    remove = new DeleteEndpointGroupUseCase(repository);
  });

  it("deletes the owner's group once", async () => {
    const id = await create.execute({ userId: OWNER, options: {} });
    await remove.execute({ userId: OWNER, groupId: id });
    expect(repository.rows.has(id)).toBe(false);
    await expect(remove.execute({ userId: OWNER, groupId: id })).rejects.toMatchObject({
      code: 'endpoint_group_not_found',
      message: `Endpoint group ${id} not found`,
    });
  });

  it("answers someone else's group like a missing one, and keeps it", async () => {
    const id = await create.execute({ userId: OWNER, options: {} });
    for (const [userId, groupId] of [
      [STRANGER, id],
      [OWNER, 424242],
    ]) {
      await expect(remove.execute({ userId, groupId })).rejects.toMatchObject({
        code: 'endpoint_group_not_found',
        message: `Endpoint group ${groupId} not found`,
      });
    }
    expect(repository.rows.has(id)).toBe(true);
  });
});
