import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import { EndpointGroupOptionsPatch, newEndpointGroupOptions } from '../domain/endpoint-group';
import { EndpointGroupKeys } from './endpoint-group-keys.service';
import { EndpointGroupRepository } from './ports/endpoint-group.repository.port';

export interface CreateEndpointGroupCommand {
  userId: number;
  /** The team of the caller's context: the group is the team's (docs/teams.md). */
  teamId?: number | null;
  options: EndpointGroupOptionsPatch;
}

/** A new group in state active, with its own worker key; returns its id. */
@Injectable()
export class CreateEndpointGroupUseCase {
  constructor(
    private readonly groups: EndpointGroupRepository,
    private readonly keys: EndpointGroupKeys,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateEndpointGroupCommand): Promise<number> {
    const options = newEndpointGroupOptions(command.options);
    return this.uow.run(async () => {
      const id = await this.groups.nextId();
      await this.groups.insert({
        id,
        userId: command.userId,
        teamId: command.teamId ?? null,
        options,
        state: 'active',
        apiKeyCiphertext: this.keys.seal(id, this.keys.generate()),
        createdAt: this.clock.now(),
      });
      return id;
    });
  }
}
