import { Injectable, Logger } from '@nestjs/common';
import { EndpointGroup } from '../domain/endpoint-group';
import { EndpointGroupKeys } from './endpoint-group-keys.service';
import { EndpointGroupRepository } from './ports/endpoint-group.repository.port';

export interface EndpointGroupWithKey {
  group: EndpointGroup;
  /** null only when the stored key can no longer be decrypted (e.g. its key retired). */
  apiKey: string | null;
}

/** The caller's own groups with their worker keys; nobody else's group is ever read. */
@Injectable()
export class ListEndpointGroupsUseCase {
  private readonly logger = new Logger(ListEndpointGroupsUseCase.name);

  constructor(
    private readonly groups: EndpointGroupRepository,
    private readonly keys: EndpointGroupKeys,
  ) {}

  /** The groups of the caller's context: a team's (`teamId`), or the user's own. */
  async execute(userId: number, teamId: number | null = null): Promise<EndpointGroupWithKey[]> {
    const stored = await this.groups.listByUser(userId, teamId);
    return stored.map(({ apiKeyCiphertext, ...group }) => {
      const apiKey = this.keys.open(group.id, apiKeyCiphertext);
      if (apiKey === null) this.logger.error(`Endpoint group ${group.id}: api key undecryptable`);
      return { group, apiKey };
    });
  }
}
