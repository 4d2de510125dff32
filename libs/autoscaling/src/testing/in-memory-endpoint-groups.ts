import {
  EndpointGroupRepository,
  NewEndpointGroup,
  StoredEndpointGroup,
} from '../application/ports/endpoint-group.repository.port';
import { EndpointGroupOptions, EndpointState, ownedIn } from '../domain/endpoint-group';

export class InMemoryEndpointGroupRepository extends EndpointGroupRepository {
  readonly rows = new Map<number, StoredEndpointGroup>();
  private sequence = 1_000_000;

  async nextId(): Promise<number> {
    return this.sequence++;
  }

  async insert(group: NewEndpointGroup): Promise<void> {
    if (this.rows.has(group.id)) throw new Error(`duplicate id ${group.id}`);
    await this.upsert(group);
  }

  async listByUser(userId: number, teamId: number | null = null): Promise<StoredEndpointGroup[]> {
    return [...this.rows.values()]
      .filter((group) => ownedIn(group, userId, teamId))
      .sort((a, b) => a.id - b.id);
  }

  async findOwnedForUpdate(
    id: number,
    userId: number,
    teamId: number | null = null,
  ): Promise<StoredEndpointGroup | null> {
    const group = this.rows.get(id);
    return group && ownedIn(group, userId, teamId) ? group : null;
  }

  async findById(id: number): Promise<StoredEndpointGroup | null> {
    return this.rows.get(id) ?? null;
  }

  async update(
    id: number,
    changes: { options: EndpointGroupOptions; state: EndpointState; updatedAt: Date },
  ): Promise<void> {
    const group = this.rows.get(id);
    if (group) this.rows.set(id, { ...group, ...changes });
  }

  async deleteOwned(id: number, userId: number, teamId: number | null = null): Promise<boolean> {
    if (!(await this.findOwnedForUpdate(id, userId, teamId))) return false;
    return this.rows.delete(id);
  }

  async upsert(group: NewEndpointGroup): Promise<void> {
    this.rows.set(group.id, {
      ...group,
      teamId: group.teamId ?? null,
      options: { ...group.options },
      updatedAt: group.createdAt,
    });
  }
}
