import { Environment, loadPlatformConfig } from '@app/platform';
import { InMemoryRateLimiter } from '@app/platform/testing';
import { accountSecurityKit, ORIGIN } from '../../testing/account-security-kit';
import { AcceptTrustedDeviceUseCase } from './accept-trusted-device.use-case';

const DAY_MS = 24 * 3600 * 1000;

async function setup(env: Record<string, string> = {}) {
  const kit = accountSecurityKit();
  const limiter = new InMemoryRateLimiter(kit.clock);
  const accept = new AcceptTrustedDeviceUseCase(
    kit.deviceTrust,
    kit.devices,
    kit.eventLog,
    kit.uow,
    kit.clock,
    kit.lock,
    limiter,
    loadPlatformConfig(new Environment({ SECURITY_WRITES_PER_USER: '3', ...env })),
  );
  const ada = kit.addUser(7);
  const bob = kit.addUser(8);
  const { device, token } = await kit.deviceTrust.trust(7, ORIGIN);
  kit.events.rows = [];
  kit.noticeQueue.jobs.length = 0;
  return { kit, accept, limiter, ada, bob, device, token };
}

const LATER = { address: '198.51.100.4', userAgent: 'browser/2.0' };

describe('AcceptTrustedDeviceUseCase', () => {
  it("the user's own active device is accepted: its use and a trusted login are recorded", async () => {
    const { kit, accept, ada, device, token } = await setup();
    kit.clock.advance(DAY_MS);
    expect(await accept.accept(ada, token, LATER)).toBe(true);
    expect((await kit.devices.listActive(7, kit.clock.now()))[0].lastUsedAt).toEqual(
      kit.clock.now(),
    );
    expect(kit.events.rows).toEqual([
      expect.objectContaining({
        userId: 7,
        kind: 'login',
        method: null,
        details: { trusted_device: true, device_id: device.id },
        origin: LATER,
      }),
    ]);
    expect(kit.noticeQueue.jobs).toEqual([]);
  });

  it("another user's device never satisfies this user's second factor", async () => {
    const { kit, accept, bob, token } = await setup();
    expect(await accept.accept(bob, token, LATER)).toBe(false);
    expect(kit.events.rows).toEqual([]);
  });

  it('a revoked, expired, unknown or malformed token is refused, recording nothing', async () => {
    const { kit, accept, ada, device, token } = await setup();
    expect(await accept.accept(ada, `${token.slice(0, -1)}x`, LATER)).toBe(false);
    expect(await accept.accept(ada, 'not-a-token', LATER)).toBe(false);
    kit.clock.advance(30 * DAY_MS);
    expect(await accept.accept(ada, token, LATER)).toBe(false);
    kit.clock.advance(-30 * DAY_MS);
    await kit.devices.revoke(7, device.id, kit.clock.now());
    expect(await accept.accept(ada, token, LATER)).toBe(false);
    expect(kit.events.rows).toEqual([]);
  });

  it('2FA off: a device skips nothing (there is nothing to skip)', async () => {
    const { kit, accept, token } = await setup();
    const off = kit.addUser(7, { tfaStatus: 'disabled', tfaEnabled: false });
    expect(await accept.accept(off, token, LATER)).toBe(false);
  });

  it("recognises the user's own active device by id, recording nothing and taking no lock", async () => {
    const { kit, accept, ada, bob, device, token } = await setup();
    expect(await accept.recognise(ada, token)).toBe(device.id);
    expect(await accept.recognise(bob, token)).toBeNull();
    expect(await accept.recognise(ada, 'gmd_not-a-token')).toBeNull();
    await kit.devices.revoke(7, device.id, kit.clock.now());
    expect(await accept.recognise(ada, token)).toBeNull();
    expect(kit.events.rows).toEqual([]);
    expect(kit.lock.locked).toEqual([]);
  });

  it("decides under the user's lock, in the caller's unit of work", async () => {
    const { kit, accept, ada, token } = await setup();
    expect(await kit.uow.run(() => accept.accept(ada, token, LATER))).toBe(true);
    expect(kit.lock.locked).toEqual([7]);
  });

  it("counts each device login against the user's security-writes budget; past it, the device does not stand in", async () => {
    const { kit, accept, ada, token } = await setup();
    for (let i = 0; i < 3; i++) expect(await accept.accept(ada, token, LATER)).toBe(true);
    expect(await accept.accept(ada, token, LATER)).toBe(false);
    expect(kit.events.rows).toHaveLength(3);
    // The window passes: the device works again.
    kit.clock.advance(600_000);
    expect(await accept.accept(ada, token, LATER)).toBe(true);
  });

  it('with rate limits off, no budget applies', async () => {
    const { accept, ada, token } = await setup({ RATE_LIMITS: 'off' });
    for (let i = 0; i < 5; i++) expect(await accept.accept(ada, token, LATER)).toBe(true);
  });
});
