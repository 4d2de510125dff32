import { NestExpressApplication } from '@nestjs/platform-express';
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { CreateUserCommand, CreateUserUseCase } from '@app/accounts';
import { ApiClient, createApiClient } from '@app/api-client';
import { Environment, FixtureRegistry, MetricsListener, RandomSource } from '@app/platform';
import { buildOpenApiDocument, createApiApp } from '../../apps/api/src/bootstrap';
import { OpenApiDocument, OpenApiResponseValidator } from './openapi-validator';
import { recordResponse } from './response-record';
import { CONDITION_TIMEOUT_MS } from './wait';

export const ROOT = join(__dirname, '..', '..');
/** Built output used by spawned processes; TEST_DIST_DIR lets parallel work build elsewhere. */
export const DIST = process.env.TEST_DIST_DIR ?? join(ROOT, 'dist');

export interface TestApi {
  app: NestExpressApplication;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Base URL of its metrics listener (GET /metrics), never the public port. */
  metricsUrl: string;
  /** Raw requests (supertest), for tests that assert on statuses and bodies. */
  http(): TestAgent;
  /**
   * The typed client generated from the OpenAPI document (@app/api-client), for set-up
   * requests; its responses are validated and recorded like those of `http()`.
   */
  client: ApiClient;
  close(): Promise<void>;
}

/** Responses are checked against the generated OpenAPI document unless OPENAPI_VALIDATE=off. */
const VALIDATE_RESPONSES = process.env.OPENAPI_VALIDATE !== 'off';

/**
 * Starts the real api (same bootstrap as `npm start`) on an ephemeral loopback port.
 * `env` overrides the test environment (e.g. RATE_LIMITS: 'on'). Every response received
 * through `http()` or `client` is recorded (RECORD_RESPONSES) and validated against the
 * api's own OpenAPI document; `close()` fails the test file when any did not conform.
 * `randomSource` replaces the CSPRNG.
 */
export async function startApi(
  env: Record<string, string> = {},
  options: { randomSource?: RandomSource } = {},
): Promise<TestApi> {
  const app = await createApiApp(new Environment({ ...process.env, ...env }), options);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const metricsUrl = `http://127.0.0.1:${app.get(MetricsListener).port}`;
  const validator = VALIDATE_RESPONSES
    ? new OpenApiResponseValidator(buildOpenApiDocument(app) as unknown as OpenApiDocument)
    : null;
  const violations: string[] = [];
  /** Every response a test receives: recorded, and checked against the document. */
  const observe = (
    method: string,
    url: string,
    status: number,
    type: string | undefined,
    body: unknown,
  ): void => {
    recordResponse(method, url, status, type, body);
    if (!validator || (type && !type.includes('json'))) return;
    violations.push(...validator.check(method, url, status, body));
  };
  const http = (): TestAgent => {
    const agent = request.agent(url);
    agent.use(
      (req: {
        method: string;
        url: string;
        on(
          event: 'response',
          listener: (res: { status: number; body: unknown; type?: string }) => void,
        ): void;
      }) =>
        req.on('response', (res) => observe(req.method, req.url, res.status, res.type, res.body)),
    );
    return agent as unknown as TestAgent;
  };
  const client = createApiClient({
    baseUrl: url,
    fetch: async (sent: Request) => {
      const response = await fetch(sent);
      // As supertest reports them: the media type alone, a JSON body parsed ({} when empty).
      const type = response.headers.get('content-type')?.split(';')[0].trim() || undefined;
      const text = await response.clone().text();
      const json = type !== undefined && type.includes('json');
      observe(sent.method, sent.url, response.status, type, json ? JSON.parse(text || '{}') : text);
      return response;
    },
  });
  return {
    app,
    url,
    metricsUrl,
    http,
    client,
    close: async () => {
      await app.close();
      if (violations.length > 0) {
        throw new Error(
          `Responses that do not match the OpenAPI document:\n${[...new Set(violations)].join('\n')}`,
        );
      }
    },
  };
}

export interface TestUser {
  id: number;
  email: string;
  apiKey: string;
  auth: { Authorization: string };
}

/** A fresh user with a unique email and its API key, through the real use case. */
export async function createTestUser(
  api: TestApi,
  command: Partial<CreateUserCommand> = {},
): Promise<TestUser> {
  const email = command.email ?? `user-${randomUUID()}@example.test`;
  const { user, apiKey } = await api.app
    .get(CreateUserUseCase)
    .execute({ verified: true, ...command, email });
  return { id: user.id, email, apiKey, auth: { Authorization: `Bearer ${apiKey}` } };
}

/** Loads a fixtures document through the same registry as `manage fixtures:load`. */
export function loadFixtures(
  api: TestApi,
  document: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return api.app.get(FixtureRegistry).load(document);
}

export interface SpawnedProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Base URL of its metrics listener. */
  metricsUrl: string;
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs the built api (`dist/`, made by `npm run build`) as a separate OS process. The start
 * timeout only bounds a process that hangs; an embedded start (PGlite's first initdb) on a
 * busy machine needs a longer one. `dist` is another build's output (a copy of the tree).
 */
export async function spawnApi(
  env: Record<string, string> = {},
  startTimeoutMs = CONDITION_TIMEOUT_MS,
  dist = DIST,
): Promise<SpawnedProcess> {
  const child = spawn(process.execPath, [join(dist, 'apps/api/src/main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let metricsPort = 0;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`api did not start:\n${output.join('\n')}`)),
      startTimeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`api exited with ${code}:\n${output.join('\n')}`));
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      try {
        const parsed = JSON.parse(line) as { msg?: string; port?: number; metrics_port?: number };
        if (parsed.msg === 'api listening' && parsed.port) {
          clearTimeout(timer);
          metricsPort = parsed.metrics_port ?? 0;
          resolve(parsed.port);
        }
      } catch {
        // not JSON: ordinary log output
      }
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

/**
 * Runs `manage <args>` from dist/ and parses its JSON stdout. A command still running after
 * `timeoutMs` is killed (exit code null), so a hang fails the test instead of stalling it.
 */
export function runManage(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs?: number,
  dist = DIST,
): Promise<{ code: number | null; json: unknown; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dist, 'apps/manage/src/main.js'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(timeoutMs ? { timeout: timeoutMs, killSignal: 'SIGKILL' as const } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      let json: unknown = null;
      try {
        json = stdout.trim() ? JSON.parse(stdout) : null;
      } catch {
        json = { unparsable: stdout };
      }
      resolve({ code, json, stderr });
    });
  });
}
