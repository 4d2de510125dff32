import { testPrincipal } from '@app/platform/testing';
import { accountsKit } from '../../testing/accounts-kit';
import { CredentialUseBatcher } from './credential-use-batcher.service';

describe('CredentialUseBatcher', () => {
  const principal = (kind: 'api_key' | 'session', id: number) =>
    testPrincipal({ credentialKind: kind, credentialId: id });

  it('writes nothing per use: one batch per flush, each credential once with its latest use', async () => {
    const kit = accountsKit();
    const batcher = new CredentialUseBatcher(kit.credentialUses, kit.clock);
    batcher.used(principal('api_key', 7), '203.0.113.1');
    kit.clock.advance(1000);
    batcher.used(principal('api_key', 7), '203.0.113.2');
    batcher.used(principal('session', 7), '203.0.113.3');
    expect(kit.credentialUses.batches).toEqual([]);
    await batcher.flush();
    expect(kit.credentialUses.batches).toEqual([
      [
        { kind: 'api_key', id: 7, at: kit.clock.now(), address: '203.0.113.2' },
        { kind: 'session', id: 7, at: kit.clock.now(), address: '203.0.113.3' },
      ],
    ]);
    await batcher.flush();
    expect(kit.credentialUses.batches).toHaveLength(1);
  });

  it('a failed write is given up (logged), and later uses are written', async () => {
    const kit = accountsKit();
    const batcher = new CredentialUseBatcher(kit.credentialUses, kit.clock);
    kit.credentialUses.failNext = true;
    batcher.used(principal('api_key', 1), null);
    await batcher.flush();
    batcher.used(principal('api_key', 2), null);
    await batcher.flush();
    expect(kit.credentialUses.batches.map((batch) => batch.map((use) => use.id))).toEqual([[2]]);
  });

  it('writes what is pending when the process stops', async () => {
    const kit = accountsKit();
    const batcher = new CredentialUseBatcher(kit.credentialUses, kit.clock);
    batcher.onModuleInit();
    batcher.used(principal('session', 3), '::1');
    await batcher.beforeApplicationShutdown();
    expect(kit.credentialUses.batches).toHaveLength(1);
  });
});
