import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import {
  closeOnSignals,
  FrameworkChatterAtDebug,
  PlatformConfig,
  startupFailureMessage,
} from '@app/platform';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(), {
    bufferLogs: true,
  });
  app.useLogger(new FrameworkChatterAtDebug(app.get(Logger)));
  // SIGTERM: stop taking jobs, let the running ones finish, then exit (bounded).
  const { shutdownTimeoutMs } = app.get(PlatformConfig);
  closeOnSignals(app, { deadlineMs: () => shutdownTimeoutMs });
  await app.init();
  process.stdout.write(`${JSON.stringify({ msg: 'worker started' })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${startupFailureMessage(error)}\n`);
  process.exit(1);
});
