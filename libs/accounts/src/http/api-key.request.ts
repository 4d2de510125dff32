import { jsonBodyProblem, Principal } from '@app/platform';
import {
  keyNameProblem,
  KeyParams,
  parseExpiry,
  parseKeyParams,
  RequestedExpiry,
} from '../domain/api-key';
import { AccountsError } from '../domain/errors';
import { CreateApiKeyRequestDto } from './api-key.request.dto';

function refused(problem: string): never {
  throw new AccountsError('bad_request', `Invalid request: ${problem}`);
}

/** The body of POST auth/apikeys/, typed; the permission document is checked by the use case. */
export function toCreateApiKeyInput(body: CreateApiKeyRequestDto): {
  name: string | null;
  permissions: unknown;
  keyParams: KeyParams | null;
  expiry: RequestedExpiry;
} {
  const nameProblem = keyNameProblem(body.name);
  if (nameProblem) refused(nameProblem);
  const keyParams = parseKeyParams(keyParamsValue(body.key_params));
  if (!keyParams.ok) refused(keyParams.problem);
  const expiry = parseExpiry({ expiresAt: body.expires_at, ttl: body.ttl });
  if (!expiry.ok) refused(expiry.problem);
  return {
    name: (body.name as string | null | undefined) ?? null,
    permissions: body.permissions,
    keyParams: keyParams.value,
    expiry: expiry.value,
  };
}

/**
 * `key_params` as an object, or as its JSON text (the public client passes `--key_params`
 * through unparsed). Text is parsed here so that what it holds meets the same input limits
 * as a request body (no control character, lone surrogate, deep nesting or unsafe number);
 * text that is not JSON is left for the domain to refuse.
 */
function keyParamsValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  // Checked as the field of a body, so that a value's problem names its path under key_params.
  const problem = jsonBodyProblem({ key_params: parsed });
  if (problem)
    throw new AccountsError(
      'bad_request',
      problem.replace(/^Invalid request: body /, 'Invalid request: key_params '),
    );
  return parsed;
}

/** A key id in a path: a positive integer. */
export function parseKeyId(raw: string): number {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2_147_483_647)
    refused('id must be a positive integer');
  return Number(raw);
}

/** `client_id` of a reset: "me" (or absent), or the caller's own id. */
export function checkResetClient(clientId: unknown, principal: Principal): void {
  if (clientId === undefined || clientId === null || clientId === 'me') return;
  if (String(clientId) === String(principal.userId)) return;
  refused('client_id: "me" (a key resets only its own user\'s main key)');
}
