import './tracing';
import 'reflect-metadata';
import {
  assertCanListen,
  checkDatabase,
  closeOnSignals,
  embeddedBanner,
  Environment,
  loadPlatformConfig,
  MetricsListener,
  PlatformConfig,
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
    await checkDatabase(config.databaseUrl, config.database);
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
  const metricsPort = app.get(MetricsListener).port;
  process.stdout.write(listeningLine(config, port, metricsPort, runtime.embedded));
}

/**
 * Said once the api listens, whatever LOG_LEVEL is: one JSON line that scripts (and tests
 * spawning the api) can wait for, or, where logs are read by a person (LOG_FORMAT pretty),
 * a sentence with the address to open.
 */
function listeningLine(
  config: PlatformConfig,
  port: number,
  metricsPort: number | null,
  embedded: boolean,
): string {
  if (config.logFormat !== 'pretty') {
    const fields = {
      msg: 'api listening',
      port,
      metrics_port: metricsPort,
      pid: process.pid,
      worker: config.runWorker,
      embedded,
    };
    return `${JSON.stringify(fields)}\n`;
  }
  const host = ['0.0.0.0', '::'].includes(config.host) ? 'localhost' : config.host;
  const notes = [
    config.runWorker ? 'delivery worker in this process' : 'no delivery worker (RUN_WORKER=false)',
    ...(metricsPort === null ? [] : [`metrics on ${config.metricsHost}:${metricsPort}`]),
    ...(embedded ? ['embedded mode'] : []),
  ];
  return `API listening on http://${host.includes(':') ? `[${host}]` : host}:${port} (${notes.join(', ')})\n`;
}

main().catch(async (error: unknown) => {
  // One line naming the setting to fix (startup-checks.ts); a stack only for a bug.
  process.stderr.write(`${startupFailureMessage(error)}\n`);
  await stopRuntime?.().catch(() => undefined);
  process.exit(1);
});
