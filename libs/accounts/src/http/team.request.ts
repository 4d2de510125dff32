import { AccountsError } from '../domain/errors';

/** The role of PUT /api/v0/team/members/{id}/: a role name. */
export function roleNameArgument(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 64)
    throw new AccountsError(
      'bad_request',
      'Invalid request: role must be the name of a role of the team',
    );
  return raw;
}

/** The name of a member's new team key: a string of at most 255 characters, or none. */
export function memberKeyName(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length > 255)
    throw new AccountsError('bad_request', 'Invalid request: name must be a string of at most 255 characters');
  return raw;
}
