import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Redis from 'ioredis';
import { numberSmsKeys } from '@app/identity-tfa/infrastructure/anti-fraud/redis-sms-send-counters';
import { QueueRegistry, SecretKeeper } from '@app/platform';
import { DIST, TestApi } from './api';
import { FakeTwilio } from './fake-twilio';
import { SmtpSink } from './smtp-sink';
import { CONDITION_TIMEOUT_MS, waitFor } from './wait';

/** Delivery test helpers: provider settings pointing at the loopback fakes, a worker process. */

/** Sends SMS through the fake Twilio server. */
export function twilioEnv(fake: FakeTwilio): Record<string, string> {
  return {
    SMS_PROVIDER: 'twilio',
    TWILIO_API_BASE_URL: fake.url,
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM: '+14155550100',
    // The send-code answer reports the first attempt's outcome (twilio_error) only if that
    // attempt ends within the wait; under load the default 3 s is not always enough, and a
    // fake that answers late must not count as a transient failure (a timeout) either.
    TWILIO_TIMEOUT_MS: '20000',
    DELIVERY_FIRST_ATTEMPT_WAIT_MS: '30000',
  };
}

/** Sends email through the SMTP sink (plain SMTP on loopback). */
export function smtpEnv(sink: SmtpSink): Record<string, string> {
  return {
    EMAIL_PROVIDER: 'smtp',
    SMTP_HOST: sink.host,
    SMTP_PORT: String(sink.port),
    SMTP_TLS: 'none',
    SMTP_FROM: 'GPU Marketplace <no-reply@gpumarket.test>',
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  output: string[];
  /** Base URL of its metrics listener: GET /metrics, /health/live, /health/ready. */
  metricsUrl: string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Runs the built worker (`<DIST>/apps/worker/src/main.js`) as its own OS process. */
export async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [join(DIST, 'apps/worker/src/main.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  let metricsPort = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker did not start:\n${output.join('\n')}`)),
      CONDITION_TIMEOUT_MS,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('"worker started"')) {
        clearTimeout(timer);
        metricsPort = (JSON.parse(line) as { metrics_port?: number }).metrics_port ?? 0;
        resolve();
      }
    });
  });
  child.removeAllListeners('exit');
  return {
    child,
    output,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    kill: (signal) =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/**
 * Forgets when `number` last got a new SMS, as if the minimum interval had passed (the
 * anti-fraud counters key numbers by fingerprint).
 */
export async function forgetRecentSend(api: TestApi, number: string): Promise<void> {
  const fingerprint = api.app.get(SecretKeeper).fingerprint('sms-destination', number);
  await api.app.get(Redis).del(numberSmsKeys(fingerprint)[1]);
}

/** The `code-delivery` job id of one send: `<challenge key>-<send number>`. */
export function deliveryJobId(api: TestApi, secret: string, sendNumber = 1): string {
  return `${api.app.get(SecretKeeper).fingerprint('tfa-secret', secret)}-${sendNumber}`;
}

/**
 * Waits (bounded polling) until a send's job has finished: completed jobs are removed from
 * the queue, a job out of attempts stays as failed. Returns which of the two it was.
 */
export async function deliverySettled(
  api: TestApi,
  jobId: string,
): Promise<'completed' | 'failed'> {
  const queue = api.app.get(QueueRegistry).get('code-delivery');
  const state = await waitFor(
    async () => {
      const job = await queue.getJob(jobId);
      if (!job) return 'completed';
      return (await job.isFailed()) ? 'failed' : 'pending';
    },
    (current) => current !== 'pending',
    { what: `delivery job ${jobId} to settle`, intervalMs: 50 },
  );
  return state as 'completed' | 'failed';
}
