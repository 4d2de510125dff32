import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { DIST, spawnApi } from '@test/support/api';

/** The api as an orchestrator sees it: separate OS processes, real signals. */
describe('api process lifecycle', () => {
  it('refuses to start in production without secrets, naming them', async () => {
    const child = spawn(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: '0',
        SECRET_HMAC_KEY: '',
        ENCRYPTION_KEYS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('SECRET_HMAC_KEY is required in production');
    expect(stderr).toContain('ENCRYPTION_KEYS is required in production');
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('reports not ready (503, redis down) when Redis is unreachable, while staying live', async () => {
    const api = await spawnApi({ REDIS_URL: 'redis://127.0.0.1:6390', RUN_WORKER: 'false' });
    try {
      const live = await fetch(`${api.url}/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${api.url}/health/ready`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { error: Record<string, { status: string }> };
      expect(body.error.redis.status).toBe('down');
    } finally {
      await api.stop();
    }
  });

  it('finishes in-flight requests and exits 0 on SIGTERM', async () => {
    const api = await spawnApi();
    expect((await fetch(`${api.url}/health/ready`)).status).toBe(200);
    // A request already accepted when the signal arrives still gets its answer.
    const inFlight = fetch(`${api.url}/health/ready`);
    const exited = api.stop('SIGTERM');
    const answered = await inFlight;
    // Answered, not dropped: readiness already reports the drain to the orchestrator.
    expect([200, 503]).toContain(answered.status);
    if (answered.status === 503)
      expect(JSON.stringify(await answered.json())).toContain('draining');
    expect(await exited).toBe(0);
  });
});
