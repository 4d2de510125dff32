import { OpenApiDocument, OpenApiResponseValidator } from './openapi-validator';

export interface ClientResponse {
  status: number;
  headers: Headers;
  // Tests read whatever the route answers; the OpenAPI check has validated its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  json?: unknown;
}

/**
 * HTTP to an api running as its own process (fetch, no in-process hooks), with every JSON
 * response checked against the OpenAPI document that same process serves, as `startApi`
 * does for in-process tests.
 */
export class ConformingClient {
  private readonly violations: string[] = [];

  private constructor(
    private readonly baseUrl: string,
    private readonly validator: OpenApiResponseValidator,
  ) {}

  static async connect(baseUrl: string): Promise<ConformingClient> {
    const response = await fetch(`${baseUrl}/api/v0/openapi.json`);
    if (response.status !== 200) throw new Error(`no OpenAPI document: ${response.status}`);
    const document = (await response.json()) as OpenApiDocument;
    return new ConformingClient(baseUrl, new OpenApiResponseValidator(document));
  }

  get(path: string, options?: RequestOptions): Promise<ClientResponse> {
    return this.request('GET', path, options);
  }

  post(path: string, options?: RequestOptions): Promise<ClientResponse> {
    return this.request('POST', path, options);
  }

  put(path: string, options?: RequestOptions): Promise<ClientResponse> {
    return this.request('PUT', path, options);
  }

  async request(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ClientResponse> {
    const headers = { ...options.headers };
    if (options.json !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    const body: unknown = isJson && text ? JSON.parse(text) : text;
    if (isJson) this.violations.push(...this.validator.check(method, path, response.status, body));
    return { status: response.status, headers: response.headers, body };
  }

  /** Throws when any response so far did not match the document. */
  assertConformed(): void {
    if (this.violations.length === 0) return;
    throw new Error(
      `Responses that do not match the OpenAPI document:\n${[...new Set(this.violations)].join('\n')}`,
    );
  }
}
