import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '@test/support/api';

/** What a deployment relies on in docker/, checked without a Docker engine. */
describe('deployment files', () => {
  const dockerfile = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds a final stage with production dependencies only, as a non-root user, with a health check', () => {
    expect(finalStage).toMatch(/npm ci --omit=dev/);
    expect(finalStage).toMatch(/^USER (?!root)\w+/m);
    expect(finalStage).toMatch(/^HEALTHCHECK [^\n]*\\\n[^\n]*\/health\/ready/m);
    expect(finalStage).toMatch(/NODE_ENV=production/);
    for (const entry of [
      'dist/apps/api/src/main.js',
      'dist/apps/worker/src/main.js',
      'dist/apps/cli/src/main.js',
    ]) {
      expect(dockerfile).toContain(entry);
    }
  });

  const compose = ['docker-compose', 'docker'].find((bin) => {
    const args = bin === 'docker' ? ['compose', 'version'] : ['version'];
    return spawnSync(bin, args, { stdio: 'ignore' }).status === 0;
  });

  (compose ? it : it.skip)(
    'has a compose file that `docker compose config` accepts, and that demands real secrets',
    () => {
      const base = compose === 'docker' ? ['compose'] : [];
      const file = join(ROOT, 'docker/compose.yml');
      const withSecrets = spawnSync(compose!, [...base, '-f', file, 'config', '-q'], {
        env: {
          ...process.env,
          SECRET_HMAC_KEY: 'k'.repeat(40),
          ENCRYPTION_KEYS: `1:${Buffer.alloc(32).toString('base64')}`,
        },
        encoding: 'utf8',
      });
      expect(withSecrets.stderr).toBe('');
      expect(withSecrets.status).toBe(0);
      const withoutSecrets = spawnSync(compose!, [...base, '-f', file, 'config', '-q'], {
        env: { ...process.env, SECRET_HMAC_KEY: '', ENCRYPTION_KEYS: '' },
        encoding: 'utf8',
      });
      expect(withoutSecrets.status).not.toBe(0);
      expect(withoutSecrets.stderr).toContain('SECRET_HMAC_KEY');
    },
  );
});
