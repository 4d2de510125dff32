import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@app/platform';
import {
  endpointGroupNotFoundMessage,
  endpointGroupUnchanged,
  EndpointGroupOptionsPatch,
  EndpointState,
  updatedEndpointGroup,
} from '../domain/endpoint-group';
import { AutoscalingError } from '../domain/errors';
import { EndpointGroupRepository } from './ports/endpoint-group.repository.port';

export interface UpdateEndpointGroupCommand {
  userId: number;
  teamId?: number | null;
  groupId: number;
  /** Only the options to change; absent ones keep their current value. */
  options: EndpointGroupOptionsPatch;
  state?: EndpointState;
}

/** PATCH-style merge over the current group, re-validated as a whole before it is stored. */
@Injectable()
export class UpdateEndpointGroupUseCase {
  constructor(
    private readonly groups: EndpointGroupRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(command: UpdateEndpointGroupCommand): Promise<void> {
    return this.uow.run(async () => {
      const group = await this.groups.findOwnedForUpdate(
        command.groupId,
        command.userId,
        command.teamId ?? null,
      );
      if (!group)
        throw new AutoscalingError(
          'endpoint_group_not_found',
          endpointGroupNotFoundMessage(command.groupId),
        );
      const next = updatedEndpointGroup(group, command.options, command.state);
      // A body of nulls (the client's "nothing set") is a no-op: not even updated_at moves.
      if (endpointGroupUnchanged(group, next)) return;
      await this.groups.update(group.id, { ...next, updatedAt: this.clock.now() });
    });
  }
}
