import { OPERATOR_ORIGIN } from '@app/platform';
import { InlineUnitOfWork } from '@app/platform/testing';
import { AccountsError } from '../domain/errors';
import { accountsKit } from '../testing/accounts-kit';
import { RecordingSessionAudit } from '../testing/recording-session-audit';
import { CredentialSessionRevocation } from './credential-session-revocation';
import { RevokeUserSessionsUseCase } from './revoke-user-sessions.use-case';

describe('RevokeUserSessionsUseCase', () => {
  async function setup() {
    const kit = accountsKit();
    const audit = new RecordingSessionAudit();
    const revoke = new RevokeUserSessionsUseCase(
      kit.users,
      new CredentialSessionRevocation(kit.credentials, kit.clock),
      new InlineUnitOfWork(),
      audit,
    );
    const userId = (await kit.users.create({ email: 'ada@example.test' })).id;
    return { kit, audit, revoke, userId };
  }

  it('ends every session of the user, keeps the API keys, and records it as the operator', async () => {
    const { kit, audit, revoke, userId } = await setup();
    const apiKey = await kit.issuer.issueApiKey(userId);
    await kit.issuer.issueSession(userId);
    await kit.issuer.issueSession(userId);
    expect(await revoke.execute(userId)).toBe(2);
    expect(kit.credentials.sessions.every((s) => s.revokedAt !== null)).toBe(true);
    expect(
      (await kit.credentials.findByHash(kit.issuer.fingerprint(apiKey)))!.revokedAt,
    ).toBeNull();
    expect(audit.ended).toEqual([{ userId, count: 2, cause: 'operator', origin: OPERATOR_ORIGIN }]);
    expect(await revoke.execute(userId)).toBe(0);
    expect(audit.ended).toHaveLength(1);
  });

  it('an unknown user is not_found naming the id', async () => {
    const { revoke } = await setup();
    const error = await revoke.execute(999).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountsError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No user 999' });
  });
});
