import { OPERATOR_ORIGIN } from '@app/platform';
import { InlineUnitOfWork } from '@app/platform/testing';
import { AccountsError } from '../../domain/errors';
import { accountsKit } from '../../testing/accounts-kit';
import { RecordingSessionAudit } from '../../testing/recording-session-audit';
import { RecordingTrustedDeviceRevocation } from '../../testing/recording-trusted-device-revocation';
import { CredentialSessionRevocation } from './credential-session-revocation.service';
import { RevokeUserSessionsUseCase } from './revoke-user-sessions.use-case';

describe('RevokeUserSessionsUseCase', () => {
  async function setup() {
    const kit = accountsKit();
    const audit = new RecordingSessionAudit();
    const devices = new RecordingTrustedDeviceRevocation();
    const revoke = new RevokeUserSessionsUseCase(
      kit.users,
      new CredentialSessionRevocation(kit.credentials, kit.clock),
      new InlineUnitOfWork(),
      audit,
      devices,
    );
    const userId = (await kit.users.create({ email: 'ada@example.test' })).id;
    return { kit, audit, devices, revoke, userId };
  }

  it('ends every session of the user, keeps the API keys, and records it as the operator', async () => {
    const { kit, audit, revoke, userId } = await setup();
    const apiKey = await kit.issuer.issueApiKey(userId);
    await kit.issuer.issueSession(userId);
    await kit.issuer.issueSession(userId);
    expect(await revoke.execute(userId)).toEqual({ sessions: 2, devices: 0 });
    expect(kit.credentials.sessions.every((s) => s.revokedAt !== null)).toBe(true);
    expect(
      (await kit.credentials.findByHash(kit.issuer.fingerprint(apiKey)))!.revokedAt,
    ).toBeNull();
    expect(audit.ended).toEqual([{ userId, count: 2, cause: 'operator', origin: OPERATOR_ORIGIN }]);
    expect(await revoke.execute(userId)).toEqual({ sessions: 0, devices: 0 });
    expect(audit.ended).toHaveLength(1);
  });

  it('ends every trusted device of the user with the sessions, as the operator', async () => {
    const { devices, revoke, userId } = await setup();
    devices.devices.set(userId, 3);
    expect(await revoke.execute(userId)).toEqual({ sessions: 0, devices: 3 });
    expect(devices.calls).toEqual([{ userId, by: 'operator', origin: OPERATOR_ORIGIN }]);
    expect(await revoke.execute(userId)).toEqual({ sessions: 0, devices: 0 });
  });

  it('an unknown user is not_found naming the id', async () => {
    const { revoke } = await setup();
    const error = await revoke.execute(999).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountsError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No user 999' });
  });
});
