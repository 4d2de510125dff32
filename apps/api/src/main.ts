import 'reflect-metadata';
import {
  closeOnSignals,
  ConfigError,
  EMBEDDED_BANNER,
  Environment,
  loadPlatformConfig,
  resolveRuntime,
} from '@app/platform';
import { createApiApp } from './bootstrap';

async function main(): Promise<void> {
  const runtime = await resolveRuntime(new Environment());
  if (runtime.embedded) console.warn(EMBEDDED_BANNER);
  const config = loadPlatformConfig(runtime.env);
  const app = await createApiApp(runtime.env);
  closeOnSignals(
    {
      close: async (signal?: string) => {
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

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
