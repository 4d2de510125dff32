import { ManualClock } from '@app/platform/testing';
import { autoscalingKit } from '../testing/autoscaling-kit';
import { InMemoryEndpointGroupRepository } from '../testing/in-memory-endpoint-groups';
import { CreateEndpointGroupUseCase } from './create-endpoint-group.use-case';
import { EndpointGroupKeys } from './endpoint-group-keys.service';

describe('CreateEndpointGroupUseCase', () => {
  const OWNER = 7;
  let repository: InMemoryEndpointGroupRepository;
  let clock: ManualClock;
  let keys: EndpointGroupKeys;
  let create: CreateEndpointGroupUseCase;

  beforeEach(() => {
    ({ repository, clock, keys, create } = autoscalingKit());
  });

  it('creates an active group with defaults and its own encrypted worker key', async () => {
    const first = await create.execute({ userId: OWNER, options: { endpointName: 'shared' } });
    const second = await create.execute({ userId: OWNER, options: { endpointName: 'shared' } });
    expect(second).not.toBe(first);
    const stored = repository.rows.get(first)!;
    expect(stored).toMatchObject({
      id: first,
      userId: OWNER,
      state: 'active',
      createdAt: clock.now(),
    });
    expect(stored.options).toMatchObject({ endpointName: 'shared', maxWorkers: 20 });
    const apiKey = keys.open(first, stored.apiKeyCiphertext);
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored.apiKeyCiphertext).not.toContain(apiKey!);
    expect(keys.open(second, repository.rows.get(second)!.apiKeyCiphertext)).not.toBe(apiKey);
  });

  it('binds the key ciphertext to its group: it does not open under another id', async () => {
    const id = await create.execute({ userId: OWNER, options: {} });
    const ciphertext = repository.rows.get(id)!.apiKeyCiphertext;
    expect(keys.open(id, ciphertext)).not.toBeNull();
    expect(keys.open(id + 1, ciphertext)).toBeNull();
  });

  it('refuses invalid options without storing anything', async () => {
    await expect(
      create.execute({ userId: OWNER, options: { coldWorkers: 30 } }),
    ).rejects.toMatchObject({
      code: 'invalid_args',
      message: 'Invalid request: cold_workers: must not exceed max_workers (30 > 20)',
    });
    expect(repository.rows.size).toBe(0);
  });
});
