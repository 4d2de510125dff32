import { mkdtempSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_FILE, ConfigStore, configDirectory, SESSION_KEY_FILE } from './config-store';
import { resolveApiKey } from './key-resolution';

describe('key resolution', () => {
  const fresh = () => new ConfigStore(join(mkdtempSync(join(tmpdir(), 'gpumkt-unit-')), 'gpumkt'));

  it('prefers --api-key, then $GPUMKT_API_KEY, then the session file, then the API key file', () => {
    const store = fresh();
    expect(resolveApiKey(undefined, {}, store)).toEqual({ key: undefined, source: 'none' });
    store.write(API_KEY_FILE, 'file-key');
    expect(resolveApiKey(undefined, {}, store)).toEqual({
      key: 'file-key',
      source: 'api-key-file',
      path: store.path(API_KEY_FILE),
    });
    store.write(SESSION_KEY_FILE, 'session-key');
    expect(resolveApiKey(undefined, {}, store)).toMatchObject({
      key: 'session-key',
      source: 'session',
    });
    expect(resolveApiKey(undefined, { GPUMKT_API_KEY: 'env-key' }, store)).toEqual({
      key: 'env-key',
      source: 'env',
    });
    expect(resolveApiKey('flag-key', { GPUMKT_API_KEY: 'env-key' }, store)).toEqual({
      key: 'flag-key',
      source: 'flag',
    });
  });

  it('ignores empty values and trims key files', () => {
    const store = fresh();
    mkdirSync(store.directory, { recursive: true });
    writeFileSync(store.path(SESSION_KEY_FILE), '  \n');
    writeFileSync(store.path(API_KEY_FILE), ' k y/+& \n');
    expect(resolveApiKey('', { GPUMKT_API_KEY: '' }, store)).toMatchObject({
      key: 'k y/+&',
      source: 'api-key-file',
    });
  });

  it('writes key files 0600 in a 0700 directory, tightening an existing file', () => {
    const store = fresh();
    mkdirSync(store.directory, { recursive: true, mode: 0o700 });
    writeFileSync(store.path(API_KEY_FILE), 'old', { mode: 0o644 });
    const path = store.write(API_KEY_FILE, 'new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(store.directory).mode & 0o777).toBe(0o700);
    expect(store.remove(API_KEY_FILE)).toBe(true);
    expect(store.remove(API_KEY_FILE)).toBe(false);
  });

  it('lives under $XDG_CONFIG_HOME/gpumkt, else ~/.config/gpumkt', () => {
    expect(configDirectory({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' })).toBe('/x/cfg/gpumkt');
    expect(configDirectory({ HOME: '/home/u' })).toBe('/home/u/.config/gpumkt');
    // The XDG specification: a relative path is invalid and ignored.
    expect(configDirectory({ XDG_CONFIG_HOME: 'rel', HOME: '/home/u' })).toBe(
      '/home/u/.config/gpumkt',
    );
  });
});
