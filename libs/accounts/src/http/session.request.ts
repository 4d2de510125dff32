import { SessionsToEnd } from '../application/sessions/end-sessions.use-case';
import { AccountsError } from '../domain/errors';
import { EndSessionsRequestDto } from './session.request.dto';

const ONE_OR_ALL = 'give the session to end as {"id": N}, or {"all": true} to end every other';

/** The body of DELETE auth/sessions/. */
export function toSessionsToEnd(body: EndSessionsRequestDto): SessionsToEnd {
  const refused = (problem: string): never => {
    throw new AccountsError('bad_request', `Invalid request: ${problem}`);
  };
  const id = body.id ?? body.key_id;
  if (body.id !== undefined && body.key_id !== undefined && body.id !== body.key_id)
    refused('id and key_id differ');
  if (body.all !== undefined && body.all !== true && body.all !== false)
    refused('all: must be a boolean');
  if (body.all === true) {
    if (id !== undefined) refused(ONE_OR_ALL);
    return { allOthers: true };
  }
  if (id === undefined || id === null) return refused(ONE_OR_ALL);
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647)
    refused('id: must be a positive integer');
  return { id: id as number };
}
