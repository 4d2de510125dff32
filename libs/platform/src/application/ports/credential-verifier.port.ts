import { Principal } from '../../domain/principal';

/** Resolves a Bearer token to a principal; implemented by the accounts context. */
export abstract class CredentialVerifier {
  /**
   * @throws DomainError auth_invalid_key when the token matches nobody,
   *         auth_session_expired when it is a session key past its expiry.
   */
  abstract verify(bearerToken: string): Promise<Principal>;
}
