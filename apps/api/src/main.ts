import 'reflect-metadata';
import {
  assertCanListen,
  checkDatabase,
  closeOnSignals,
  embeddedBanner,
  Environment,
  loadPlatformConfig,
  probeRedis,
  resolveRuntime,
  startupFailureMessage,
} from '@app/platform';
import { Logger } from 'nestjs-pino';
import { createApiApp } from './bootstrap';

/** Stops the embedded database (and releases its directory) when the start fails. */
let stopRuntime: (() => Promise<void>) | undefined;

async function main(): Promise<void> {
  const env = new Environment();
  // Settings and the port are checked before anything is opened (see startup-checks.ts).
  const requested = loadPlatformConfig(env);
  await assertCanListen(requested.host, requested.port);
  const runtime = await resolveRuntime(env, { role: 'api', command: 'api' });
  stopRuntime = runtime.stop;
  if (runtime.embedded) console.warn(embeddedBanner(runtime.dataDir!));
  const config = loadPlatformConfig(runtime.env);
  if (!runtime.embedded) {
    await checkDatabase(config.databaseUrl);
    const redisProblem = await probeRedis(config.redisUrl);
    if (redisProblem) process.stderr.write(`Warning: ${redisProblem}\n`);
  }
  const app = await createApiApp(runtime.env);
  closeOnSignals(
    {
      close: async (signal?: string) => {
        app.get(Logger).log(`${signal ?? 'Stop'} received: shutting down`, 'Shutdown');
        await (app as { close(signal?: string): Promise<void> }).close(signal);
        await runtime.stop();
      },
    },
    {
      // The grace period (SIGTERM only, see DrainOnShutdown), then the bounded rest.
      deadlineMs: (signal) =>
        (signal === 'SIGTERM' ? config.shutdownGraceMs : 0) + config.shutdownTimeoutMs,
    },
  );
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // One machine-readable line that scripts (and tests spawning the api) can wait for.
  process.stdout.write(
    `${JSON.stringify({ msg: 'api listening', port, worker: config.runWorker, embedded: runtime.embedded })}\n`,
  );
}

main().catch(async (error: unknown) => {
  // One line naming the setting to fix (startup-checks.ts); a stack only for a bug.
  process.stderr.write(`${startupFailureMessage(error)}\n`);
  await stopRuntime?.().catch(() => undefined);
  process.exit(1);
});
