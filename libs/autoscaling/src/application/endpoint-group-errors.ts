import { AutoscalingError } from '../domain/errors';
import { DomainError } from '@app/platform';

/** Unknown ids and other users' groups are one answer: ids of others are never confirmed. */
export function endpointGroupNotFound(id: number): DomainError {
  return new AutoscalingError('endpoint_group_not_found', `Endpoint group ${id} not found`);
}
