import { NodeSecretKeeper } from '../infrastructure/crypto/node-crypto.adapters';

/** A real secret keeper with fixed test keys. */
export function testSecretKeeper(): NodeSecretKeeper {
  return new NodeSecretKeeper(Buffer.from('unit-test-hmac-key-unit-test-hmac-key'), [
    { version: 1, key: Buffer.alloc(32, 1) },
  ]);
}
