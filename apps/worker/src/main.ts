import './tracing';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import {
  checkDatabase,
  closeOnSignals,
  Environment,
  FrameworkChatterAtDebug,
  loadPlatformConfig,
  MetricsListener,
  PlatformConfig,
  startupFailureMessage,
} from '@app/platform';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const env = new Environment();
  // A setting, database or pooler mistake ends in one line naming the fix (startup-checks.ts).
  const config = loadPlatformConfig(env);
  await checkDatabase(config.databaseUrl, config.database);
  const app = await NestFactory.createApplicationContext(WorkerModule.register(env), {
    bufferLogs: true,
  });
  app.useLogger(new FrameworkChatterAtDebug(app.get(Logger)));
  // SIGTERM: stop taking jobs, let the running ones finish, then exit (bounded).
  const { shutdownTimeoutMs } = app.get(PlatformConfig);
  closeOnSignals(app, { deadlineMs: () => shutdownTimeoutMs });
  await app.init();
  const metricsPort = app.get(MetricsListener).port;
  process.stdout.write(`${JSON.stringify({ msg: 'worker started', metrics_port: metricsPort })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${startupFailureMessage(error)}\n`);
  process.exit(1);
});
