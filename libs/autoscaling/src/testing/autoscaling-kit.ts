import {
  InlineUnitOfWork,
  ManualClock,
  SeededRandomSource,
  testSecretKeeper,
} from '@app/platform/testing';
import { CreateEndpointGroupUseCase } from '../application/create-endpoint-group.use-case';
import { EndpointGroupKeys } from '../application/endpoint-group-keys.service';
import { InMemoryEndpointGroupRepository } from './in-memory-endpoint-groups';

/** The autoscaling fakes wired together, as the module wires the real adapters. */
export function autoscalingKit(clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5))) {
  const repository = new InMemoryEndpointGroupRepository();
  const keys = new EndpointGroupKeys(new SeededRandomSource(), testSecretKeeper());
  const uow = new InlineUnitOfWork();
  return {
    clock,
    repository,
    keys,
    uow,
    /** Groups are made through the real use case, so each spec starts from real rows. */
    create: new CreateEndpointGroupUseCase(repository, keys, uow, clock),
  };
}
