import { Principal } from '@app/platform';
import { InlineUnitOfWork, testOrigin, testPrincipal } from '@app/platform/testing';
import { accountsKit } from '../../testing/accounts-kit';
import { RecordingSessionAudit } from '../../testing/recording-session-audit';
import { CredentialSessionRevocation } from './credential-session-revocation.service';
import { LogoutUseCase } from './logout.use-case';

const ORIGIN = testOrigin();

describe('LogoutUseCase', () => {
  let kit: ReturnType<typeof accountsKit>;
  let logout: LogoutUseCase;
  let audit: RecordingSessionAudit;
  let userId: number;

  const principal = (credentialId: number, kind: 'api_key' | 'session'): Principal =>
    testPrincipal({ userId, credentialId, credentialKind: kind });

  beforeEach(async () => {
    kit = accountsKit();
    audit = new RecordingSessionAudit();
    logout = new LogoutUseCase(
      new CredentialSessionRevocation(kit.credentials, kit.clock),
      new InlineUnitOfWork(),
      audit,
    );
    userId = (await kit.users.create({ email: 'ada@example.test' })).id;
  });

  it('ends the session that made the request, and only that one', async () => {
    const { sessionKey } = await kit.issuer.issueSession(userId);
    const other = await kit.issuer.issueSession(userId);
    const session = (await kit.credentials.findByHash(kit.issuer.fingerprint(sessionKey)))!;
    await logout.execute(principal(session.id, 'session'), ORIGIN);
    expect(
      (await kit.credentials.findByHash(kit.issuer.fingerprint(sessionKey)))!.revokedAt,
    ).toEqual(kit.clock.now());
    expect(
      (await kit.credentials.findByHash(kit.issuer.fingerprint(other.sessionKey)))!.revokedAt,
    ).toBeNull();
  });

  it('refuses a request made with an API key and ends nothing', async () => {
    const apiKey = await kit.issuer.issueApiKey(userId);
    const { sessionKey } = await kit.issuer.issueSession(userId);
    const key = (await kit.credentials.findByHash(kit.issuer.fingerprint(apiKey)))!;
    await expect(logout.execute(principal(key.id, 'api_key'), ORIGIN)).rejects.toMatchObject({
      code: 'bad_request',
      message: 'Logout ends a session key; this request was made with an API key.',
    });
    expect(
      (await kit.credentials.findByHash(kit.issuer.fingerprint(sessionKey)))!.revokedAt,
    ).toBeNull();
  });

  it('records the end of the session with its origin; a session already ended records nothing', async () => {
    const { sessionKey } = await kit.issuer.issueSession(userId);
    const session = (await kit.credentials.findByHash(kit.issuer.fingerprint(sessionKey)))!;
    await logout.execute(principal(session.id, 'session'), ORIGIN);
    await logout.execute(principal(session.id, 'session'), ORIGIN);
    expect(audit.ended).toEqual([{ userId, count: 1, cause: 'logout', origin: ORIGIN }]);
  });

  it('an API key records nothing', async () => {
    const apiKey = await kit.issuer.issueApiKey(userId);
    const key = (await kit.credentials.findByHash(kit.issuer.fingerprint(apiKey)))!;
    await logout.execute(principal(key.id, 'api_key'), ORIGIN).catch(() => undefined);
    expect(audit.ended).toEqual([]);
  });
});
