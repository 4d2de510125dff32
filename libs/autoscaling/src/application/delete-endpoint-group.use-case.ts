import { Injectable } from '@nestjs/common';
import { endpointGroupNotFoundMessage } from '../domain/endpoint-group';
import { AutoscalingError } from '../domain/errors';
import { EndpointGroupRepository } from './ports/endpoint-group.repository.port';

export interface DeleteEndpointGroupCommand {
  userId: number;
  teamId?: number | null;
  groupId: number;
}

/** Removes one of the caller's groups; its worker key goes with it. */
@Injectable()
export class DeleteEndpointGroupUseCase {
  constructor(private readonly groups: EndpointGroupRepository) {}

  async execute(command: DeleteEndpointGroupCommand): Promise<void> {
    const deleted = await this.groups.deleteOwned(
      command.groupId,
      command.userId,
      command.teamId ?? null,
    );
    if (!deleted)
      throw new AutoscalingError(
        'endpoint_group_not_found',
        endpointGroupNotFoundMessage(command.groupId),
      );
  }
}
