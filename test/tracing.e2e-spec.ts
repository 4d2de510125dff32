import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DIST, runManage, spawnApi, SpawnedProcess } from '@test/support/api';
import { smtpEnv, spawnWorker, twilioEnv, WorkerProcess } from '@test/support/delivery';
import { FakeTwilio, startFakeTwilio } from '@test/support/fake-twilio';
import { OwnRedis } from '@test/support/own-redis';
import {
  OtlpReceiver,
  ReceivedSpan,
  SPAN_KIND,
  startOtlpReceiver,
} from '@test/support/otlp-receiver';
import { SmtpSink, startSmtpSink } from '@test/support/smtp-sink';
import { testPhone } from '@test/support/tfa';
import { CONDITION_TIMEOUT_MS, waitFor } from '@test/support/wait';

/**
 * Tracing end to end: the built api and a separate worker process export to a real
 * OTLP/HTTP receiver started here; providers are the loopback fakes. One request's trace
 * must run from the HTTP span through SQL, Redis and the queue to the SMTP call in the
 * worker, carry no secret the test planted, and vanish when sampling is off.
 */

const API_SERVICE = 'gpu-marketplace-api';
const WORKER_SERVICE = 'gpu-marketplace-worker';

/** A W3C traceparent of our own choosing, as a caller's proxy would send it. */
function callerTraceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

function codeIn(text: string): string {
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in: ${text}`);
  return code;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Every parent of the trace is in it, and exactly one span (the root) has none. */
function assertConnected(spans: ReceivedSpan[]): ReceivedSpan {
  const ids = new Set(spans.map((span) => span.spanId));
  const roots = spans.filter((span) => span.parentSpanId === '');
  expect(roots).toHaveLength(1);
  const orphans = spans.filter((span) => span.parentSpanId !== '' && !ids.has(span.parentSpanId));
  expect(orphans.map((span) => `${span.service}: ${span.name}`)).toEqual([]);
  return roots[0];
}

function named(spans: ReceivedSpan[], name: string, service: string): ReceivedSpan {
  const found = spans.find((span) => span.name === name && span.service === service);
  if (!found)
    throw new Error(
      `no span '${name}' of ${service} in: ${spans.map((s) => `${s.service}:${s.name}`).join(', ')}`,
    );
  return found;
}

/** Every string an exported span carries: names, attribute and event values, resources. */
function exportedText(span: ReceivedSpan): string {
  return JSON.stringify([
    span.name,
    span.attributes,
    span.events,
    span.status.message,
    span.resource,
  ]);
}

describe('tracing: OpenTelemetry over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let sink: SmtpSink;
  let twilio: FakeTwilio;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    sink = await startSmtpSink();
    twilio = await startFakeTwilio();
  });

  afterAll(async () => {
    await receiver?.close();
    await sink?.close();
    await twilio?.close();
  });

  describe('the api and a separate worker, exporting OTLP/HTTP JSON', () => {
    let api: SpawnedProcess;
    let worker: WorkerProcess;
    const email = `trace-${randomUUID()}@example.test`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const phone = testPhone();
    let userId: number;
    let apiKey: string;
    /** Every secret the flows below handle; none may appear in any exported span. */
    const planted: string[] = [];
    // A Redis of its own: a worker on the shared test index would also take other test
    // files' delivery jobs (and their api processes this worker's).
    let redis: OwnRedis;

    beforeAll(async () => {
      redis = await OwnRedis.start();
      const env = {
        REDIS_URL: redis.url,
        ...smtpEnv(sink),
        ...twilioEnv(twilio),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Small batches sent often: the test waits for spans, not for a 5 s timer.
        OTEL_BSP_SCHEDULE_DELAY: '200',
      };
      api = await spawnApi({ ...env, RUN_WORKER: 'false', LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      worker = await spawnWorker({ ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      const created = await runManage([
        'user:create',
        '--email',
        email,
        '--password',
        password,
        '--verified',
      ]);
      expect(created.code).toBe(0);
      ({ id: userId, api_key: apiKey } = created.json as { id: number; api_key: string });
      planted.push(email, password, phone, phone.slice(1), apiKey, twilio.authToken);
      // Two process starts and a manage run, each bounded by the condition timeout.
    }, 3 * CONDITION_TIMEOUT_MS);

    afterAll(async () => {
      await api?.stop();
      await worker?.kill('SIGTERM');
      await redis?.stop();
    });

    const bearer = () => ({
      Authorization: `Bearer ${apiKey}`,
      'Content-Type': 'application/json',
    });

    it('an email-code send is one trace: HTTP, use case, SQL, Redis, queue, then the job, ledger and SMTP in the worker', async () => {
      const response = await fetch(`${api.url}/api/v0/tfa/authorize-new-method/`, {
        method: 'POST',
        headers: bearer(),
        body: JSON.stringify({ tfa_method: 'email' }),
      });
      expect(response.status).toBe(200);
      const { secret } = (await json(response)) as { secret: string };
      const traceId = response.headers.get('x-trace-id') ?? '';
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      const [mail] = await sink.waitForMail((m) => m.to.includes(email), 1);
      const code = codeIn(mail.text);
      planted.push(secret, code);
      // The provider receives the trace context too (the email's traceparent header).
      expect(mail.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

      // Complete once the job's span (which ends after its SMTP call) and the request's are in.
      const spans = await receiver.waitForSpans(
        (all) =>
          all.some((s) => s.traceId === traceId && s.name === 'process code-delivery') &&
          all.some((s) => s.traceId === traceId && s.kind === SPAN_KIND.server),
        `the email send's trace ${traceId}`,
      );
      const trace = spans.filter((span) => span.traceId === traceId);
      const root = assertConnected(trace);
      expect(root).toMatchObject({ kind: SPAN_KIND.server, service: API_SERVICE });
      // Named by its route template (as the controller declares it, without the slash).
      expect(root.name).toBe('POST /api/v0/tfa/authorize-new-method');
      expect(root.attributes).toMatchObject({
        'http.route': '/api/v0/tfa/authorize-new-method',
        'http.response.status_code': 200,
        'user.id': String(userId),
      });
      expect(new Set(trace.map((span) => span.service))).toEqual(
        new Set([API_SERVICE, WORKER_SERVICE]),
      );

      // In the api: the use case, its SQL (text with placeholders), Redis, the queue add.
      named(trace, 'StartMethodAuthorizationUseCase', API_SERVICE);
      const sql = trace.filter(
        (s) => s.service === API_SERVICE && s.attributes['db.system.name'] === 'postgresql',
      );
      expect(sql.length).toBeGreaterThan(0);
      expect(sql.some((s) => /\$1/.test(String(s.attributes['db.query.text'])))).toBe(true);
      const redisInApi = trace.filter(
        (s) => s.service === API_SERVICE && s.attributes['db.system.name'] === 'redis',
      );
      expect(redisInApi.length).toBeGreaterThan(0);
      const send = named(trace, 'send code-delivery', API_SERVICE);
      expect(send).toMatchObject({ kind: SPAN_KIND.producer });

      // In the worker: the job (a child of the queue add), the use case, the ledger, SMTP.
      const job = named(trace, 'process code-delivery', WORKER_SERVICE);
      expect(job).toMatchObject({ kind: SPAN_KIND.consumer, parentSpanId: send.spanId });
      expect(job.attributes).toMatchObject({
        'messaging.system': 'bullmq',
        'messaging.bullmq.job.name': 'deliver-code',
      });
      named(trace, 'DeliverCodeUseCase', WORKER_SERVICE);
      const ledger = trace.filter(
        (s) => s.service === WORKER_SERVICE && s.attributes['db.system.name'] === 'redis',
      );
      expect(ledger.some((s) => /^eval/.test(String(s.attributes['db.query.text'])))).toBe(true);
      const smtp = named(trace, 'smtp send', WORKER_SERVICE);
      expect(smtp).toMatchObject({ kind: SPAN_KIND.client });
      expect(smtp.attributes['server.port']).toBe(sink.port);

      // The request's log line carries the trace and the server span.
      const line = api.output
        .filter((l) => l.includes(`"trace_id":"${traceId}"`))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((entry) => entry.msg === 'request completed');
      expect(line).toMatchObject({ trace_id: traceId, span_id: root.spanId });
      // So does the worker's line of the delivery, with the span of the job it was logged in.
      const workerSpans = new Set(
        trace.filter((s) => s.service === WORKER_SERVICE).map((s) => s.spanId),
      );
      const sent = await waitFor(
        () =>
          worker.output
            .filter((l) => l.startsWith('{') && l.includes(traceId))
            .map((l) => JSON.parse(l) as Record<string, unknown>)
            .find((entry) => /^Code sent by smtp/.test(String(entry.msg))),
        (found) => found !== undefined,
        { what: "the worker's line of the delivery" },
      );
      expect(sent).toMatchObject({ trace_id: traceId, span_id: expect.any(String) });
      expect(workerSpans.has(String(sent?.span_id))).toBe(true);

      // Confirm the authorization with the code: its SQL too runs without values.
      const confirm = await fetch(`${api.url}/api/v0/tfa/authorize-new-method/`, {
        method: 'PUT',
        headers: bearer(),
        body: JSON.stringify({ secret, code }),
      });
      expect(confirm.status).toBe(200);
    });

    it('an SMS send reaches Twilio with the trace context in traceparent', async () => {
      const response = await fetch(`${api.url}/api/v0/tfa/sms/`, {
        method: 'POST',
        headers: bearer(),
        body: JSON.stringify({ phone_number: phone }),
      });
      expect(response.status).toBe(200);
      planted.push(((await json(response)) as { secret: string }).secret);
      const traceId = response.headers.get('x-trace-id') ?? '';
      const [sms] = await twilio.waitForMessages((m) => m.to === phone, 1);
      planted.push(codeIn(sms.body));
      const call = twilio.calls.find((c) => c.method === 'POST' && c.body.includes('Body='));
      expect(call?.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      const spans = await receiver.waitForSpans(
        (all) => all.some((s) => s.traceId === traceId && s.name === 'twilio send sms'),
        'the twilio span',
      );
      const twilioSpan = named(
        spans.filter((s) => s.traceId === traceId),
        'twilio send sms',
        WORKER_SERVICE,
      );
      expect(call?.traceparent).toContain(twilioSpan.spanId);
    });

    it('a password login is traced without its password or session key', async () => {
      const response = await fetch(`${api.url}/api/v0/users/login/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(response.status).toBe(200);
      planted.push(String(((await json(response)) as { session_key: string }).session_key));
      const traceId = response.headers.get('x-trace-id') ?? '';
      await receiver.waitForSpans(
        (all) => all.some((s) => s.traceId === traceId && s.kind === SPAN_KIND.server),
        'the login trace',
      );
    });

    it('a request whose body arrives after its headers is still one trace', async () => {
      const url = new URL(`${api.url}/api/v0/users/login/`);
      const body = JSON.stringify({ email, password });
      const traceId = await new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          url,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(String(response.headers['x-trace-id'])));
          },
        );
        request.on('error', reject);
        // The headers go first; the body follows in a later packet, read by the body
        // parser outside the request's own async context.
        request.flushHeaders();
        setTimeout(() => request.end(body), 300);
      });
      const spans = await receiver.waitForSpans(
        (all) =>
          all.some((s) => s.traceId === traceId && s.kind === SPAN_KIND.server) &&
          all.some((s) => s.name === 'PasswordLoginUseCase' && s.traceId === traceId),
        'the login trace with its use case',
      );
      assertConnected(spans.filter((s) => s.traceId === traceId));
    });

    it('an error answer carries its trace id, whose span has the status and error code', async () => {
      const response = await fetch(`${api.url}/api/v0/users/current/?api_key=${apiKey}`, {
        headers: { Authorization: 'Bearer not-a-key' },
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      const body = await json(response);
      const traceId = response.headers.get('x-trace-id') ?? '';
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      const spans = await receiver.waitForSpans(
        (all) => all.some((s) => s.traceId === traceId && s.kind === SPAN_KIND.server),
        'the failed request span',
      );
      const root = spans.find((s) => s.traceId === traceId && s.kind === SPAN_KIND.server)!;
      expect(root.attributes).toMatchObject({
        'http.route': '/api/v0/users/current',
        'http.response.status_code': response.status,
        'app.error_code': expect.any(String),
      });
      expect(body.error ?? root.attributes['app.error_code']).toBeTruthy();
      // The query string (here an API key, as old clients sent it) is never exported.
      expect(JSON.stringify(root.attributes)).not.toContain('api_key');
    });

    it('a server span is named by its route template, never by the ids in its path', async () => {
      const matched = await fetch(`${api.url}/api/v0/budgets/987654/`, { headers: bearer() });
      expect(matched.status).toBe(404);
      const unmatched = await fetch(`${api.url}/api/v0/no-such-route/5551234/`, {
        headers: bearer(),
      });
      expect(unmatched.status).toBe(404);
      const ids = [matched, unmatched].map((response) => response.headers.get('x-trace-id'));
      const spans = await receiver.waitForSpans(
        (all) =>
          ids.every((id) => all.some((s) => s.traceId === id && s.kind === SPAN_KIND.server)),
        'the two 404 spans',
      );
      const [route, noRoute] = ids.map((id) =>
        spans.find((s) => s.traceId === id && s.kind === SPAN_KIND.server)!,
      );
      expect(route.name).toBe('GET /api/v0/budgets/:id');
      expect(route.attributes['http.route']).toBe('/api/v0/budgets/:id');
      // No route of ours matched: the catch-all's template, so a scan of made-up paths adds
      // no span names.
      expect(noRoute.name).toMatch(/^GET( \/\{\*path\})?$/);
      const named = [route, noRoute].map((s) => [s.name, s.attributes['http.route']]);
      expect(JSON.stringify(named)).not.toMatch(/987654|5551234|no-such-route/);
    });

    it("a trusted proxy's traceparent is continued", async () => {
      const caller = callerTraceparent();
      const response = await fetch(`${api.url}/api/v0/users/current/`, {
        headers: { ...bearer(), traceparent: caller.header },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-trace-id')).toBe(caller.traceId);
      const spans = await receiver.waitForSpans(
        (all) => all.some((s) => s.traceId === caller.traceId && s.kind === SPAN_KIND.server),
        "the caller's trace",
      );
      const root = spans.find((s) => s.traceId === caller.traceId && s.kind === SPAN_KIND.server)!;
      expect(root.parentSpanId).toBe(caller.spanId);
    });

    it('no exported span carries a planted secret (after both processes flushed on exit)', async () => {
      expect(await api.stop()).toBe(0);
      await worker.kill('SIGTERM');
      expect(worker.child.exitCode).toBe(0);
      expect(planted.filter((secret) => secret.length >= 6)).toHaveLength(planted.length);
      expect(receiver.spans.length).toBeGreaterThan(20);
      const leaks = receiver.spans.flatMap((span) =>
        planted
          .filter((secret) => exportedText(span).includes(secret))
          .map((secret) => `${span.service} '${span.name}' carries ${secret.slice(0, 4)}…`),
      );
      expect(leaks).toEqual([]);
    });
  });

  it(
    'sampling off exports nothing, yet logs (pretty) and answers carry the trace id',
    async () => {
      const service = `trace-off-${randomUUID().slice(0, 8)}`;
      const created = await runManage([
        'user:create',
        '--email',
        `off-${randomUUID()}@example.test`,
      ]);
      const { api_key: key } = created.json as { api_key: string };
      const before = receiver.contentTypes.length;
      const api = await spawnPretty({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: service,
        OTEL_TRACES_SAMPLER: 'always_off',
        // Nobody is trusted: a caller's traceparent is ignored, a new trace begins.
        TRUSTED_PROXIES: 'none',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      });
      try {
        const caller = callerTraceparent();
        const response = await fetch(`${api.url}/api/v0/users/current/`, {
          headers: { Authorization: `Bearer ${key}`, traceparent: caller.header },
        });
        expect(response.status).toBe(200);
        const traceId = response.headers.get('x-trace-id') ?? '';
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(traceId).not.toBe(caller.traceId);
        const line = await waitFor(
          () => api.output.find((l) => l.includes('GET /api/v0/users/current/ 200')),
          (found) => found !== undefined,
          { what: 'the pretty request line' },
        );
        expect(line).toContain(`trace_id=${traceId} span_id=`);
      } finally {
        expect(await api.stop()).toBe(0);
      }
      expect(receiver.spans.filter((span) => span.service === service)).toEqual([]);
      // Nothing was sent at all (an empty batch is not exported).
      expect(receiver.contentTypes.slice(before)).toEqual([]);
      // A manage run and a process start, each bounded by the condition timeout.
    },
    3 * CONDITION_TIMEOUT_MS,
  );

  it('the protobuf encoding (the default) reaches the receiver too', async () => {
    const service = `trace-proto-${randomUUID().slice(0, 8)}`;
    const api = await spawnApi({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: service,
      RUN_WORKER: 'false',
    });
    let traceId = '';
    try {
      const response = await fetch(`${api.url}/api/v0/users/current/`);
      traceId = response.headers.get('x-trace-id') ?? '';
    } finally {
      expect(await api.stop()).toBe(0);
    }
    const root = receiver.spans.find((s) => s.service === service && s.kind === SPAN_KIND.server);
    expect(root?.traceId).toBe(traceId);
    expect(receiver.contentTypes).toContain('application/x-protobuf');
  });

  it('without an exporter configured the SDK is not loaded and answers carry no trace id', async () => {
    const report = join(tmpdir(), `loaded-modules-${randomUUID()}.txt`);
    const preload = join(tmpdir(), `report-loaded-modules-${randomUUID()}.js`);
    writeFileSync(
      preload,
      "process.on('exit', () => require('fs').writeFileSync(process.env.LOADED_MODULES_REPORT, " +
        "Object.keys(require.cache).join('\\n')));\n",
    );
    const api = await spawnApi({
      NODE_OPTIONS: `--require ${preload}`,
      LOADED_MODULES_REPORT: report,
      RUN_WORKER: 'false',
    });
    try {
      const response = await fetch(`${api.url}/api/v0/users/current/`);
      expect(response.headers.get('x-trace-id')).toBeNull();
    } finally {
      expect(await api.stop()).toBe(0);
    }
    const loaded = readFileSync(report, 'utf8').split('\n');
    expect(loaded.some((path) => path.includes('/node_modules/pg/'))).toBe(true);
    // Only the API package, which prom-client loads for its exemplars anyway: no SDK, no
    // exporter, no instrumentation.
    const sdkParts = loaded.filter(
      (path) =>
        path.includes('/node_modules/@opentelemetry/') && !/@opentelemetry\/api\//.test(path),
    );
    expect(sdkParts).toEqual([]);
  });
});

/** The built api with LOG_FORMAT=pretty, whose start ends with "API listening on http://...". */
async function spawnPretty(env: Record<string, string>): Promise<{
  url: string;
  output: string[];
  stop(): Promise<number | null>;
}> {
  const child: ChildProcess = spawn(process.execPath, [join(DIST, 'apps/api/src/main.js')], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'pretty',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => output.push(line));
  const port = await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`api exited:\n${output.join('\n')}`);
      for (const line of output) {
        const match = /API listening on http:\/\/[^ ]+:(\d+)/.exec(line);
        if (match) return Number(match[1]);
      }
      return 0;
    },
    (found) => found > 0,
    { what: 'the pretty api to listen', timeoutMs: CONDITION_TIMEOUT_MS },
  );
  return {
    url: `http://127.0.0.1:${port}`,
    output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
