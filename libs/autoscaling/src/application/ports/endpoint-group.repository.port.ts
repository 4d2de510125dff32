import { EndpointGroup, EndpointGroupOptions, EndpointState } from '../../domain/endpoint-group';

/** A group as stored: the domain record plus its worker key, encrypted. */
export interface StoredEndpointGroup extends EndpointGroup {
  readonly apiKeyCiphertext: string;
}

export interface NewEndpointGroup {
  id: number;
  userId: number;
  /** The team of the context it was made in; null or absent: the user's own. */
  teamId?: number | null;
  options: EndpointGroupOptions;
  state: EndpointState;
  apiKeyCiphertext: string;
  createdAt: Date;
}

export abstract class EndpointGroupRepository {
  /** Reserves an id before the insert, so the key can be encrypted bound to it. */
  abstract nextId(): Promise<number>;

  abstract insert(group: NewEndpointGroup): Promise<void>;

  /** The groups the context owns (`ownedIn`), oldest first. */
  abstract listByUser(userId: number, teamId?: number | null): Promise<StoredEndpointGroup[]>;

  /**
   * The group if it belongs to `userId`, row-locked until the unit of work ends so
   * concurrent updates merge one after another instead of losing each other's changes.
   */
  abstract findOwnedForUpdate(
    id: number,
    userId: number,
    teamId?: number | null,
  ): Promise<StoredEndpointGroup | null>;

  abstract update(
    id: number,
    changes: { options: EndpointGroupOptions; state: EndpointState; updatedAt: Date },
  ): Promise<void>;

  /** Deletes the group if it belongs to `userId`; false when there was none to delete. */
  abstract deleteOwned(id: number, userId: number, teamId?: number | null): Promise<boolean>;

  /** Creates or replaces a group with an explicit id (fixtures). */
  abstract upsert(group: NewEndpointGroup): Promise<void>;

  abstract findById(id: number): Promise<StoredEndpointGroup | null>;
}
