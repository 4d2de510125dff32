import { endpointGroupRepositoryContract } from './endpoint-group-repository.contract';
import { InMemoryEndpointGroupRepository } from './in-memory-endpoint-groups';

describe('InMemoryEndpointGroupRepository', () => {
  endpointGroupRepositoryContract(async () => ({
    repository: new InMemoryEndpointGroupRepository(),
    owner: 7,
    stranger: 8,
    fixtureId: 40_001,
    teamId: 9,
  }));
});
