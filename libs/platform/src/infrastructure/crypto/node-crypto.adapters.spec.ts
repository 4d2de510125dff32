import { NodeSecretKeeper } from './node-crypto.adapters';

const master = Buffer.from('a-master-key-for-unit-tests-only-0123456789');
const keyV1 = { version: 1, key: Buffer.alloc(32, 1) };
const keyV2 = { version: 2, key: Buffer.alloc(32, 2) };

describe('NodeSecretKeeper', () => {
  const keeper = new NodeSecretKeeper(master, [keyV1]);

  it('fingerprints deterministically, separately per purpose', () => {
    expect(keeper.fingerprint('credential', 'abc')).toBe(keeper.fingerprint('credential', 'abc'));
    expect(keeper.fingerprint('credential', 'abc')).not.toBe(
      keeper.fingerprint('backup-code', 'abc'),
    );
    expect(keeper.fingerprint('credential', 'abc')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('compares in constant time and exactly', () => {
    expect(keeper.equal('123456', '123456')).toBe(true);
    expect(keeper.equal('123456', '123457')).toBe(false);
    expect(keeper.equal('123456', '1234567')).toBe(false);
    expect(keeper.equal('', '')).toBe(true);
  });

  it('round-trips encryption and binds the ciphertext to its AAD', () => {
    const sealed = keeper.encrypt('JBSWY3DPEHPK3PXP', 'tfa-method:7');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(keeper.decrypt(sealed, 'tfa-method:7')).toBe('JBSWY3DPEHPK3PXP');
    expect(keeper.decrypt(sealed, 'tfa-method:8')).toBeNull();
  });

  it('uses a fresh IV per encryption', () => {
    expect(keeper.encrypt('same', 'aad')).not.toBe(keeper.encrypt('same', 'aad'));
  });

  it('rejects tampered or malformed ciphertexts instead of throwing', () => {
    const sealed = keeper.encrypt('secret', 'aad');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(
      keeper.decrypt(
        [parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'),
        'aad',
      ),
    ).toBeNull();
    expect(keeper.decrypt('garbage', 'aad')).toBeNull();
    expect(keeper.decrypt('v9.a.b.c', 'aad')).toBeNull();
  });

  it('encrypts with the newest key and still decrypts older versions after rotation', () => {
    const old = keeper.encrypt('before rotation', 'aad');
    const rotated = new NodeSecretKeeper(master, [keyV1, keyV2]);
    expect(rotated.decrypt(old, 'aad')).toBe('before rotation');
    expect(rotated.encrypt('after', 'aad')).toMatch(/^v2\./);
  });

  it('signs tokens and refuses altered ones', () => {
    const token = keeper.sign('cursor', '{"k":1}');
    expect(keeper.verify('cursor', token)).toBe('{"k":1}');
    expect(keeper.verify('other-purpose', token)).toBeNull();
    const [body, mac] = token.split('.');
    const forged = Buffer.from('{"k":2}').toString('base64url');
    expect(keeper.verify('cursor', `${forged}.${mac}`)).toBeNull();
    expect(keeper.verify('cursor', `${body}.`)).toBeNull();
    expect(keeper.verify('cursor', 'no-dot')).toBeNull();
    expect(keeper.verify('cursor', 'a.b.c')).toBeNull();
  });

  describe('SECRET_HMAC_KEY versions', () => {
    const older = Buffer.from('the-older-hmac-key-for-unit-tests-0123456789');
    const before = new NodeSecretKeeper(older, [keyV1]);
    const during = new NodeSecretKeeper(
      [
        { version: 1, key: older },
        { version: 2, key: master },
      ],
      [keyV1],
    );
    const after = new NodeSecretKeeper([{ version: 2, key: master }], [keyV1]);

    it('keeps a plain key as version 1: its fingerprints do not change', () => {
      expect(
        new NodeSecretKeeper([{ version: 1, key: master }], [keyV1]).fingerprint('p', 'v'),
      ).toBe(keeper.fingerprint('p', 'v'));
    });

    it('makes new fingerprints with the newest key and finds old ones under every key', () => {
      expect(during.fingerprint('credential', 'k')).toBe(after.fingerprint('credential', 'k'));
      expect(during.fingerprint('credential', 'k')).not.toBe(before.fingerprint('credential', 'k'));
      expect(during.fingerprints('credential', 'k')).toEqual([
        after.fingerprint('credential', 'k'),
        before.fingerprint('credential', 'k'),
      ]);
      expect(before.fingerprints('credential', 'k')).toEqual([
        before.fingerprint('credential', 'k'),
      ]);
    });

    it('verifies tokens signed under any listed key and signs with the newest', () => {
      const old = before.sign('cursor', 'payload');
      expect(during.verify('cursor', old)).toBe('payload');
      expect(after.verify('cursor', old)).toBeNull();
      const fresh = during.sign('cursor', 'payload');
      expect(after.verify('cursor', fresh)).toBe('payload');
      expect(before.verify('cursor', fresh)).toBeNull();
      const [body, mac] = old.split('.');
      expect(during.verify('cursor', `${body}x.${mac}`)).toBeNull();
    });

    it('orders keys by version, not by position in the list', () => {
      const reversed = new NodeSecretKeeper(
        [
          { version: 2, key: master },
          { version: 1, key: older },
        ],
        [keyV1],
      );
      expect(reversed.fingerprint('p', 'v')).toBe(after.fingerprint('p', 'v'));
    });
  });
});
