import { autoscalingKit } from '../testing/autoscaling-kit';
import { InMemoryEndpointGroupRepository } from '../testing/in-memory-endpoint-groups';
import { CreateEndpointGroupUseCase } from './create-endpoint-group.use-case';
import { ListEndpointGroupsUseCase } from './list-endpoint-groups.use-case';

describe('ListEndpointGroupsUseCase', () => {
  const OWNER = 7;
  const STRANGER = 8;
  let repository: InMemoryEndpointGroupRepository;
  let create: CreateEndpointGroupUseCase;
  let list: ListEndpointGroupsUseCase;

  beforeEach(() => {
    const kit = autoscalingKit();
    ({ repository, create } = kit);
    list = new ListEndpointGroupsUseCase(repository, kit.keys);
  });

  it("lists only the caller's groups, oldest first, each with its own worker key", async () => {
    const first = await create.execute({ userId: OWNER, options: { maxWorkers: 30 } });
    await create.execute({ userId: STRANGER, options: {} });
    const second = await create.execute({ userId: OWNER, options: {} });
    const rows = await list.execute(OWNER);
    expect(rows.map((row) => [row.group.id, row.group.userId])).toEqual([
      [first, OWNER],
      [second, OWNER],
    ]);
    expect(rows[0].group.options.maxWorkers).toBe(30);
    expect(rows[0].group).not.toHaveProperty('apiKeyCiphertext');
    expect(rows[0].apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rows[1].apiKey).not.toBe(rows[0].apiKey);
  });

  it("answers null for a key moved onto another group's row instead of decrypting it", async () => {
    const first = await create.execute({ userId: OWNER, options: {} });
    const second = await create.execute({ userId: OWNER, options: {} });
    repository.rows.set(second, {
      ...repository.rows.get(second)!,
      apiKeyCiphertext: repository.rows.get(first)!.apiKeyCiphertext,
    });
    const rows = await list.execute(OWNER);
    expect(rows.find((row) => row.group.id === first)!.apiKey).not.toBeNull();
    expect(rows.find((row) => row.group.id === second)!.apiKey).toBeNull();
  });
});
