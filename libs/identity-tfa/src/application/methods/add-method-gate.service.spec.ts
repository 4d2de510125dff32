import { DomainError } from '@app/platform';
import { tfaTestKit } from '../../testing/tfa-test-kit';

describe('AddMethodGate', () => {
  it('is granted for 30 minutes: open at 29:59, closed at 30:00.001', async () => {
    const kit = tfaTestKit();
    expect(await kit.gate.isGranted(7)).toBe(false);
    await kit.gate.grant(7);
    kit.clock.advance(29 * 60 * 1000 + 59 * 1000);
    await expect(kit.gate.require(7)).resolves.toBeUndefined();
    kit.clock.advance(1001);
    await expect(kit.gate.require(7)).rejects.toMatchObject({ code: 'authorization_required' });
  });

  it('fails closed with service_unavailable when the store cannot be read', async () => {
    const kit = tfaTestKit();
    await kit.gate.grant(7);
    kit.authorizations.failing = true;
    const error = await kit.gate.require(7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('service_unavailable');
  });
});
