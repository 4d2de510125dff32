import {
  ApiClient as WireClient,
  ApiMethod,
  createApiClient,
  InitParam,
  WireData,
  WireInit,
  WirePath,
} from '@app/api-client';
import { URL_ENV } from '../config/api-url';
import { ConfigStore, SESSION_KEY_FILE } from '../config/config-store';
import { describeKeySource, ResolvedKey } from '../config/key-resolution';
import { ApiError, CliFailure, summarizeBody } from '../errors';
import { Io } from '../io';
import { encodeQuery, QueryValue } from './query-encoding';
import { RetryPolicy, retryDelay } from './retry-policy';

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
 * One typed call: the path as it goes on the wire (`/api/v0/tfa/status/`), its params and
 * body as the OpenAPI document defines them; it answers the documented success body.
 */
export type ApiCall<Method extends ApiMethod> = <Wire extends WirePath<Method>>(
  path: Wire,
  ...init: InitParam<WireInit<Method, Wire>>
) => Promise<WireData<Method, Wire>>;

export interface ApiCalls {
  get: ApiCall<'get'>;
  post: ApiCall<'post'>;
  put: ApiCall<'put'>;
  delete: ApiCall<'delete'>;
}

/** How one request is sent, beyond what the typed client builds. */
interface SendOptions {
  /** Send this Bearer key instead of the resolved one, with no session fallback (logout). */
  key?: string;
  /** Answer a successful response with its body unread (downloads). */
  unread?: boolean;
}

/** A request as the client sends it: the URL as built from --url, the JSON payload if any. */
interface Outgoing {
  method: string;
  url: string;
  query: URLSearchParams;
  payload?: string;
}

/**
 * Answers that mean "this Bearer key is no longer accepted": the messages the public
 * client recognises, and the documented auth_error (403) for an expired session (docs/cli.md).
 */
const EXPIRED_SESSION: readonly { status: number; msg?: string; error?: string }[] = [
  { status: 404, msg: 'Session expired. Please log in again.' },
  { status: 401, msg: 'Invalid user key' },
  { status: 404, msg: 'Invalid user key' },
  { status: 403, error: 'auth_error' },
];

/**
 * The typed client builds each path and query against this origin; the request goes to
 * --url exactly as given (a Request would spell its host in lower case, drop a default
 * port, and refuse an unparsable one before it could fail like any unreachable address).
 */
const PLACEHOLDER_ORIGIN = 'http://api.invalid';

type UntypedCall = (path: string, init?: object) => Promise<{ data?: unknown; response: Response }>;

/**
 * HTTP to the api through the typed client generated from the OpenAPI document
 * (@app/api-client builds each request: path, query, body), sent by this class's own
 * fetch: JSON in and out, retries with backoff, --explain, timeouts, session fallback.
 */
export class ApiClient implements ApiCalls {
  private key: ResolvedKey;
  private readonly fetchImpl: typeof fetch;
  /** --url without trailing slashes: the wire paths start with one. */
  private readonly base: string;
  private readonly wire: WireClient;

  readonly get: ApiCall<'get'>;
  readonly post: ApiCall<'post'>;
  readonly put: ApiCall<'put'>;
  readonly delete: ApiCall<'delete'>;

  constructor(private readonly options: ApiClientOptions) {
    this.key = options.resolveKey();
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.wire = createApiClient({
      baseUrl: PLACEHOLDER_ORIGIN,
      // The public client's encoding, which the api reads (select_filters as JSON).
      querySerializer: (query) => encodeQuery(query as Record<string, QueryValue>),
    });
    ({ get: this.get, post: this.post, put: this.put, delete: this.delete } = this.calls({}));
  }

  get currentKey(): ResolvedKey {
    return this.key;
  }

  /** The calls sent with this Bearer key, and no session fallback (logout sends the session's). */
  withKey(key: string): ApiCalls {
    return this.calls({ key });
  }

  /**
   * A successful response whose body is left unread, for downloads: retries and errors as
   * for the other calls, the timeout covers the wait for the response headers only (a
   * large body may take longer to arrive).
   */
  async stream<Wire extends WirePath<'get'>>(
    path: Wire,
    ...init: InitParam<WireInit<'get', Wire>>
  ): Promise<Response> {
    const { response } = await (this.wire.GET as UntypedCall)(path, {
      ...init[0],
      parseAs: 'stream',
      fetch: (request: Request) => this.send(request, { unread: true }),
    });
    return response;
  }

  private calls(options: SendOptions): ApiCalls {
    const call =
      (method: keyof WireClient) =>
      async (path: string, init?: object): Promise<unknown> => {
        const { data } = await (this.wire[method] as UntypedCall)(path, {
          ...init,
          fetch: (request: Request) => this.send(request, options),
        });
        return data;
      };
    return {
      get: call('GET'),
      post: call('POST'),
      put: call('PUT'),
      delete: call('DELETE'),
    } as ApiCalls;
  }

  /** The fetch of the typed client: every request it builds is sent from here. */
  private async send(request: Request, options: SendOptions): Promise<Response> {
    const outgoing: Outgoing = {
      method: request.method,
      url: `${this.base}${request.url.slice(PLACEHOLDER_ORIGIN.length)}`,
      query: new URL(request.url).searchParams,
      // As the public client: a write always carries a JSON body, `{}` when it has none.
      payload:
        request.body !== null ? await request.text() : request.method === 'GET' ? undefined : '{}',
    };
    // A request that names its own key (logout sends the saved session key) has no fallback.
    if (options.key !== undefined) return this.withRetries(outgoing, options);
    return this.withSessionFallback(() => this.withRetries(outgoing, options));
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

  private async withRetries(outgoing: Outgoing, options: SendOptions): Promise<Response> {
    const { io, policy, baseUrl } = this.options;
    for (let attempt = 0; ; attempt++) {
      this.explain(outgoing, options, attempt);
      let response: Response;
      try {
        response = await this.fetchOnce(outgoing, options);
      } catch (error) {
        const wait = retryDelay(policy, attempt, {}, io.now());
        const reason = connectionFailureText(error);
        if (wait === null) throw new CliFailure(`cannot reach ${baseUrl}: ${reason}`);
        this.noteRetry(reason, wait, attempt);
        await io.sleep(wait);
        continue;
      }
      if (response.ok && options.unread) return response;
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
        // The typed client reads the body again: hand it the text already read.
        return new Response(text, { status: response.status, headers: response.headers });
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

  private async fetchOnce(outgoing: Outgoing, options: SendOptions): Promise<Response> {
    const key = options.key ?? this.key.key;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': 'gpumkt',
    };
    if (key !== undefined) headers.Authorization = `Bearer ${key}`;
    if (outgoing.payload !== undefined) headers['Content-Type'] = 'application/json';
    const init = { method: outgoing.method, headers, body: outgoing.payload, redirect: 'manual' };
    if (!options.unread) {
      return this.fetchImpl(outgoing.url, {
        ...init,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      } as RequestInit);
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('request timed out', 'TimeoutError')),
      this.options.timeoutMs,
    );
    try {
      return await this.fetchImpl(outgoing.url, {
        ...init,
        signal: controller.signal,
      } as RequestInit);
    } finally {
      clearTimeout(timer);
    }
  }

  private explain(outgoing: Outgoing, options: SendOptions, attempt: number): void {
    if (!this.options.explain) return;
    const lines = [
      `${outgoing.method} ${outgoing.url}${attempt > 0 ? `  (retry ${attempt})` : ''}`,
    ];
    // Decoded: strings as they were given, anything else as the JSON sent.
    for (const [name, value] of outgoing.query) {
      lines.push(`  query ${name} = ${value}`);
    }
    if (outgoing.payload !== undefined) lines.push(`  body ${this.redact(outgoing.payload)}`);
    lines.push(
      options.key !== undefined
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
