import { Module, OnModuleInit } from '@nestjs/common';
import { ErrorCatalog, FixtureRegistry, RateLimitRegistry } from '@app/platform';
import { CreateEndpointGroupUseCase } from './application/create-endpoint-group.use-case';
import { DeleteEndpointGroupUseCase } from './application/delete-endpoint-group.use-case';
import { EndpointGroupKeys } from './application/endpoint-group-keys.service';
import { ListEndpointGroupsUseCase } from './application/list-endpoint-groups.use-case';
import { EndpointGroupRepository } from './application/ports/endpoint-group.repository.port';
import { UpdateEndpointGroupUseCase } from './application/update-endpoint-group.use-case';
import { AUTOSCALING_ERRORS } from './domain/errors';
import { EndpointGroupsController } from './http/endpoint-groups.controller';
import { EndpointGroupsFixtureLoader } from './infrastructure/endpoint-groups-fixture.loader';
import { PostgresEndpointGroupRepository } from './infrastructure/persistence/postgres-endpoint-group.repository';
import { AUTOSCALING_RATE_LIMITS } from './http/rate-limits';

/** Autoscaling endpoint groups: create, list, update, delete, each with its worker key. */
@Module({
  controllers: [EndpointGroupsController],
  providers: [
    { provide: EndpointGroupRepository, useClass: PostgresEndpointGroupRepository },
    EndpointGroupKeys,
    CreateEndpointGroupUseCase,
    ListEndpointGroupsUseCase,
    UpdateEndpointGroupUseCase,
    DeleteEndpointGroupUseCase,
    EndpointGroupsFixtureLoader,
  ],
})
export class AutoscalingModule implements OnModuleInit {
  constructor(
    errors: ErrorCatalog,
    rateLimits: RateLimitRegistry,
    private readonly fixtures: FixtureRegistry,
    private readonly groupsFixture: EndpointGroupsFixtureLoader,
  ) {
    errors.register(AUTOSCALING_ERRORS);
    rateLimits.register(AUTOSCALING_RATE_LIMITS);
  }

  onModuleInit(): void {
    this.fixtures.register(this.groupsFixture);
  }
}
