import { Principal } from '@app/platform';
import { InlineUnitOfWork, testOrigin } from '@app/platform/testing';
import { accountsKit } from '../../testing/accounts-kit';
import { RecordingSessionAudit } from '../../testing/recording-session-audit';
import { RecordingTrustedDeviceRevocation } from '../../testing/recording-trusted-device-revocation';
import { AuthenticateBearerUseCase } from '../credentials/authenticate-bearer.use-case';
import { CredentialSessionRevocation } from './credential-session-revocation.service';
import { EndSessionsUseCase } from './end-sessions.use-case';
import { ListSessionsUseCase } from './list-sessions.use-case';

const ORIGIN = testOrigin();

describe('sessions a user sees and ends', () => {
  let kit: ReturnType<typeof accountsKit>;
  let audit: RecordingSessionAudit;
  let devices: RecordingTrustedDeviceRevocation;
  let list: ListSessionsUseCase;
  let end: EndSessionsUseCase;
  let authenticate: AuthenticateBearerUseCase;
  let userId: number;

  beforeEach(async () => {
    kit = accountsKit();
    audit = new RecordingSessionAudit();
    devices = new RecordingTrustedDeviceRevocation();
    list = new ListSessionsUseCase(kit.sessions, kit.clock);
    end = new EndSessionsUseCase(
      kit.sessions,
      new CredentialSessionRevocation(kit.credentials, kit.clock),
      new InlineUnitOfWork(),
      kit.clock,
      audit,
      devices,
    );
    authenticate = new AuthenticateBearerUseCase(kit.credentials, kit.issuer, kit.clock, kit.cache);
    userId = (await kit.users.create({ email: 'ada@example.test' })).id;
  });

  const open = async (origin = ORIGIN, trustedDevice = false) =>
    (await kit.issuer.issueSession(userId, { origin: { ...origin, trustedDevice } })).sessionKey;
  const principalOf = (key: string): Promise<Principal> => authenticate.execute(key);

  it('lists the live sessions newest first, marking the current one and the trusted-device ones', async () => {
    const first = await open();
    kit.clock.advance(1000);
    const second = await open({ address: '198.51.100.4', userAgent: 'Firefox' }, true);
    const listed = await list.execute(await principalOf(first));
    expect(listed.map((s) => [s.current, s.trustedDevice, s.address, s.userAgent])).toEqual([
      [false, true, '198.51.100.4', 'Firefox'],
      [true, false, '203.0.113.9', 'unit-test/1.0'],
    ]);
    // With an API key, none is current.
    const apiKey = await kit.issuer.issueApiKey(userId);
    expect((await list.execute(await principalOf(apiKey))).some((s) => s.current)).toBe(false);
    expect(listed[0].id).toBe((await principalOf(second)).credentialId);
  });

  it('ends one session of the user (the current one included); another id is not found', async () => {
    const current = await open();
    const other = await open();
    const otherId = (await principalOf(other)).credentialId;
    const principal = await principalOf(current);
    expect(await end.execute({ principal, target: { id: otherId }, origin: ORIGIN })).toEqual({
      sessions: 1,
      devices: 0,
    });
    await expect(principalOf(other)).rejects.toMatchObject({ code: 'auth_session_expired' });
    await expect(
      end.execute({ principal, target: { id: otherId }, origin: ORIGIN }),
    ).rejects.toMatchObject({ code: 'not_found', message: `No session ${otherId}.` });
    await end.execute({ principal, target: { id: principal.credentialId }, origin: ORIGIN });
    await expect(principalOf(current)).rejects.toMatchObject({ code: 'auth_session_expired' });
    expect(audit.ended).toEqual([
      { userId, count: 1, cause: 'user', origin: ORIGIN },
      { userId, count: 1, cause: 'user', origin: ORIGIN },
    ]);
    expect(devices.calls).toEqual([]);
  });

  it('signs out everywhere: every other session and every trusted device; the current one and API keys stay', async () => {
    const current = await open();
    const others = [await open(), await open()];
    const apiKey = await kit.issuer.issueApiKey(userId);
    devices.devices.set(userId, 3);
    const principal = await principalOf(current);
    expect(await end.execute({ principal, target: { allOthers: true }, origin: ORIGIN })).toEqual({
      sessions: 2,
      devices: 3,
    });
    for (const key of others)
      await expect(principalOf(key)).rejects.toMatchObject({ code: 'auth_session_expired' });
    expect(await principalOf(current)).toMatchObject({ credentialKind: 'session' });
    expect(await principalOf(apiKey)).toMatchObject({ credentialKind: 'api_key' });
    expect(audit.ended).toEqual([{ userId, count: 2, cause: 'user', origin: ORIGIN }]);
    expect(devices.calls).toEqual([{ userId, by: 'user', origin: ORIGIN }]);
    // From an API key, every session ends.
    await open();
    expect(
      await end.execute({
        principal: await principalOf(apiKey),
        target: { allOthers: true },
        origin: ORIGIN,
      }),
    ).toEqual({ sessions: 2, devices: 0 });
  });
});
