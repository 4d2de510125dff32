import { AccountsError } from '../domain/errors';
import { Injectable } from '@nestjs/common';
import { Principal } from '@app/platform';
import { SessionRevocation } from './ports/session-revocation.port';

/** Ends the session whose key made the request; API keys are not ended this way. */
@Injectable()
export class LogoutUseCase {
  constructor(private readonly sessions: SessionRevocation) {}

  async execute(principal: Principal): Promise<void> {
    if (principal.credentialKind !== 'session')
      throw new AccountsError(
        'bad_request',
        'Logout ends a session key; this request was made with an API key.',
      );
    await this.sessions.revoke(principal.credentialId);
  }
}
