import { Principal } from '../../domain/principal';

/**
 * Hears that a credential was used (and from where), for the "last used" of keys and
 * sessions. Called on the request path by the access guard: an implementation only notes
 * it in memory and writes later, in batches (docs/access.md "Last used").
 */
export abstract class CredentialUseRecorder {
  abstract used(principal: Principal, address: string | null): void;
}
