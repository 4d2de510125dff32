import { FULL_PERMISSIONS } from '../domain/access/permissions';
import { Principal } from '../domain/principal';

/** A caller for unit tests: user 1's full personal API key 10, unless `fields` say otherwise. */
export function testPrincipal(fields: Partial<Principal> = {}): Principal {
  return {
    userId: 1,
    credentialId: 10,
    credentialKind: 'api_key',
    teamId: null,
    isAdminUser: false,
    isAdminSession: false,
    permissions: FULL_PERMISSIONS,
    ipAllowlist: null,
    ...fields,
  };
}
