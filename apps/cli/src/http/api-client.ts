import { URL_ENV } from '../config/api-url';
import { ConfigStore, SESSION_KEY_FILE } from '../config/config-store';
import { describeKeySource, ResolvedKey } from '../config/key-resolution';
import { ApiError, CliFailure, summarizeBody } from '../errors';
import { Io } from '../io';
import { buildUrl, QueryValue } from './query-encoding';
import { RetryPolicy, retryDelay } from './retry-policy';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  /** The path as it goes on the wire, e.g. `/api/v0/charges/`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Send this Bearer key instead of the resolved one, with no session fallback (logout). */
  key?: string;
}

export interface ApiClientOptions {
  baseUrl: string;
  policy: RetryPolicy;
  explain: boolean;
  timeoutMs: number;
  io: Io;
  store: ConfigStore;
  /** Resolves the key again after the session file is removed. */
  resolveKey: () => ResolvedKey;
  fetchImpl?: typeof fetch;
}

/**
 * Answers that mean "this Bearer key is no longer accepted": the messages the public
 * client recognises, and the spec's auth_error (403) for an expired session.
 */
const EXPIRED_SESSION: readonly { status: number; msg?: string; error?: string }[] = [
  { status: 404, msg: 'Session expired. Please log in again.' },
  { status: 401, msg: 'Invalid user key' },
  { status: 404, msg: 'Invalid user key' },
  { status: 403, error: 'auth_error' },
];

/** HTTP to the api: JSON in and out, retries with backoff, --explain, session fallback. */
export class ApiClient {
  private key: ResolvedKey;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.key = options.resolveKey();
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  get currentKey(): ResolvedKey {
    return this.key;
  }

  async request<T = Record<string, unknown>>(request: ApiRequest): Promise<T> {
    // A request that names its own key (logout sends the saved session key) has no fallback.
    if (request.key !== undefined) return this.withRetries<T>(request);
    return this.withSessionFallback(() => this.withRetries<T>(request));
  }

  /**
   * A successful response whose body is left unread, for downloads: retries and errors as
   * for `request`, the timeout covers the wait for the response headers only (a large
   * body may take longer to arrive).
   */
  async stream(request: ApiRequest): Promise<Response> {
    return this.withSessionFallback(() => this.withRetries<Response>(request, true));
  }

  private async withSessionFallback<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ApiError) || !this.isExpiredSession(error)) throw error;
      this.fallBackFromSession();
      return attempt();
    }
  }

  private isExpiredSession(error: ApiError): boolean {
    if (this.key.source !== 'session') return false;
    return EXPIRED_SESSION.some(
      (answer) =>
        answer.status === error.status &&
        (answer.msg === undefined || answer.msg === error.field('msg')) &&
        (answer.error === undefined || answer.error === error.code),
    );
  }

  /** The stored 2FA session is dead: forget it and carry on with the saved API key. */
  private fallBackFromSession(): void {
    const { io, store } = this.options;
    store.remove(SESSION_KEY_FILE);
    this.key = this.options.resolveKey();
    if (this.key.source === 'session' || this.key.key === undefined) {
      throw new CliFailure(
        'Your 2FA session has expired and no API key is saved. ' +
          'Run "gpumkt set api-key KEY", then "gpumkt tfa login".',
      );
    }
    io.stderr.write(
      `Notice: your 2FA session has expired; removed it and continuing with the API key from ` +
        `${describeKeySource(this.key)}. Run "gpumkt tfa login" to start a new session.\n`,
    );
  }

  private async withRetries<T>(request: ApiRequest, unread = false): Promise<T> {
    const { io, policy, baseUrl } = this.options;
    const url = buildUrl(baseUrl, request.path, request.query);
    const sendsBody = request.method !== 'GET' || request.body !== undefined;
    const payload = sendsBody ? JSON.stringify(request.body ?? {}) : undefined;
    for (let attempt = 0; ; attempt++) {
      this.explain(request, url, payload, attempt);
      let response: Response;
      try {
        response = await this.send(request.method, url, payload, unread, request.key);
      } catch (error) {
        const wait = retryDelay(policy, attempt, {}, io.now());
        const reason = connectionFailureText(error);
        if (wait === null) throw new CliFailure(`cannot reach ${baseUrl}: ${reason}`);
        this.noteRetry(reason, wait, attempt);
        await io.sleep(wait);
        continue;
      }
      if (response.ok && unread) return response as T;
      const text = await response.text();
      const body = parseJson(text);
      if (response.ok) {
        if (body === undefined) {
          throw new CliFailure(
            `${baseUrl} answered ${response.status} with a body that is not JSON ` +
              `(${response.headers.get('content-type') ?? 'no content type'}: ` +
              `${summarizeBody(text)}); check that --url (or $${URL_ENV}) is the api's address`,
          );
        }
        return body as T;
      }
      const error = new ApiError(response.status, body ?? null, text);
      const wait = retryDelay(
        policy,
        attempt,
        {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          refusal: error.code !== undefined,
        },
        io.now(),
      );
      if (wait === null) throw error;
      this.noteRetry(`${response.status}`, wait, attempt);
      await io.sleep(wait);
    }
  }

  private async send(
    method: HttpMethod,
    url: string,
    payload: string | undefined,
    headersOnly = false,
    key = this.key.key,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': 'gpumkt',
    };
    if (key !== undefined) headers.Authorization = `Bearer ${key}`;
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    if (!headersOnly) {
      return this.fetchImpl(url, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('request timed out', 'TimeoutError')),
      this.options.timeoutMs,
    );
    try {
      return await this.fetchImpl(url, {
        method,
        headers,
        body: payload,
        signal: controller.signal,
        redirect: 'manual',
      });
    } finally {
      clearTimeout(timer);
    }
  }

  private explain(
    request: ApiRequest,
    url: string,
    payload: string | undefined,
    attempt: number,
  ): void {
    if (!this.options.explain) return;
    const lines = [`${request.method} ${url}${attempt > 0 ? `  (retry ${attempt})` : ''}`];
    if (request.query) {
      for (const [name, value] of Object.entries(request.query)) {
        if (value === undefined) continue;
        lines.push(
          `  query ${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`,
        );
      }
    }
    if (payload !== undefined) lines.push(`  body ${this.redact(payload)}`);
    lines.push(
      request.key !== undefined
        ? '  Authorization: Bearer <redacted> (the saved 2FA session key)'
        : this.key.key === undefined
          ? '  no Authorization header (no key found)'
          : `  Authorization: Bearer <redacted> (key from ${describeKeySource(this.key)})`,
    );
    this.options.io.stderr.write(lines.map((line) => `[explain] ${line}\n`).join(''));
  }

  private redact(text: string): string {
    const key = this.key.key;
    return key ? text.split(key).join('<redacted>') : text;
  }

  private noteRetry(reason: string, waitMs: number, attempt: number): void {
    if (!this.options.explain) return;
    this.options.io.stderr.write(
      `[explain] ${reason}: retry ${attempt + 1} of ${this.options.policy.retries} in ${(waitMs / 1000).toFixed(2)} s\n`,
    );
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function connectionFailureText(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'request timed out';
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code) return cause.code;
    if (cause?.message) return cause.message;
    return error.message;
  }
  return String(error);
}
