import { encodeToken } from '@app/platform';
import { ScriptedRandomSource, testSecretKeeper } from '@app/platform/testing';
import { EndpointGroupKeys } from './endpoint-group-keys.service';

describe('EndpointGroupKeys', () => {
  it('makes worker keys of 256 bits in letters and digits, even from a draw whose base64url began with "-"', () => {
    const random = new ScriptedRandomSource();
    const draw = Buffer.concat([Buffer.from([0xf8]), Buffer.alloc(31, 0x11)]);
    expect(draw.toString('base64url')).toMatch(/^-/);
    random.nextBytes(draw);
    const key = new EndpointGroupKeys(random, testSecretKeeper()).generate();
    expect(key).toBe(encodeToken(draw));
    expect(key).toMatch(/^[A-Za-z0-9]{43}$/);
  });
});
