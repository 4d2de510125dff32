import { Environment } from '../../config/environment';
import { loadPlatformConfig } from '../../config/platform-config';
import { wantsEmbedded } from './embedded-runtime';

/** A probe that answers as if these "host:port" services were listening. */
const listening =
  (...services: string[]) =>
  async (host: string, port: number) =>
    services.includes(`${host}:${port}`);

describe('wantsEmbedded', () => {
  it('runs embedded outside production when no URL is set and nothing answers at the defaults', async () => {
    expect(await wantsEmbedded(new Environment({}), listening())).toBe(true);
  });

  it('uses the services when either answers at its default port', async () => {
    expect(await wantsEmbedded(new Environment({}), listening('127.0.0.1:5432'))).toBe(false);
    expect(await wantsEmbedded(new Environment({}), listening('127.0.0.1:6379'))).toBe(false);
  });

  it('uses the services when a URL is set, whatever answers', async () => {
    const env = new Environment({ DATABASE_URL: 'postgres://db.internal/app' });
    expect(await wantsEmbedded(env, listening())).toBe(false);
  });

  it('follows EMBEDDED=true and EMBEDDED=false', async () => {
    const probe = listening('127.0.0.1:5432', '127.0.0.1:6379');
    expect(await wantsEmbedded(new Environment({ EMBEDDED: 'true' }), probe)).toBe(true);
    expect(await wantsEmbedded(new Environment({ EMBEDDED: 'false' }), listening())).toBe(false);
  });

  it('reads EMBEDDED as the configuration does: every value that validates means what it says', async () => {
    const both = listening('127.0.0.1:5432', '127.0.0.1:6379');
    for (const yes of ['1', 'yes', 'on', 'TRUE']) {
      expect(await wantsEmbedded(new Environment({ EMBEDDED: yes }), both)).toBe(true);
      // Forced even with URLs set: they are then ignored.
      const urls = { EMBEDDED: yes, DATABASE_URL: 'postgres://db.internal/app' };
      expect(await wantsEmbedded(new Environment(urls), both)).toBe(true);
    }
    for (const no of ['0', 'no', 'off', 'False']) {
      expect(await wantsEmbedded(new Environment({ EMBEDDED: no }), listening())).toBe(false);
    }
  });

  it('starts nothing embedded for a value the configuration refuses', async () => {
    expect(await wantsEmbedded(new Environment({ EMBEDDED: 'maybe' }), listening())).toBe(false);
    expect(() => loadPlatformConfig(new Environment({ EMBEDDED: 'maybe' }))).toThrow(
      "EMBEDDED must be one of true, 1, yes, on, false, 0, no, off (got 'maybe')",
    );
  });

  it('never in production, not even when asked (the configuration then refuses EMBEDDED)', async () => {
    const production = { NODE_ENV: 'production' };
    expect(await wantsEmbedded(new Environment(production), listening())).toBe(false);
    expect(
      await wantsEmbedded(new Environment({ ...production, EMBEDDED: 'true' }), listening()),
    ).toBe(false);
  });
});
