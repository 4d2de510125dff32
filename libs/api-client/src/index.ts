import createClient, { ClientOptions, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.generated';

/**
 * The typed HTTP client of the api, generated from the committed OpenAPI document
 * (docs/openapi.json; `npm run api-client:generate` rewrites openapi.generated.ts, and a
 * unit test fails when the committed file is not what the generator makes of it). It is
 * openapi-fetch over the generated `paths`: every path, query and body is checked by tsc
 * against the document, and every answer is typed by it. It imports no other library, so
 * the command-line client, which speaks HTTP only, may use it.
 */
export type { components, operations, paths };

/** A named schema of the document: `ApiSchema<'TfaStatusResponseDto'>`. */
export type ApiSchema<Name extends keyof components['schemas']> = components['schemas'][Name];

export type ApiMethod = 'get' | 'put' | 'post' | 'delete';

/** The document's routes that answer `Method`. */
export type RouteOf<Method extends ApiMethod> = {
  [Path in keyof paths]: paths[Path][Method] extends undefined ? never : Path;
}[keyof paths];

/**
 * A route as it goes on the wire: the document's path, with or without a trailing slash.
 * The api serves both variants of every route and clients use both (`users/current`,
 * `tfa/status/`), so the client sends exactly the variant it is given.
 */
export type WirePath<Method extends ApiMethod> = RouteOf<Method> | `${RouteOf<Method>}/`;

/** The document's path of a wire path. */
export type RouteFor<Wire extends string> = Wire extends `${infer Route extends keyof paths}/`
  ? Route
  : Wire & keyof paths;

type Operation<Method extends ApiMethod, Wire extends string> = paths[RouteFor<Wire>][Method];

/** What a call takes besides the path: `params` (path, query) and `body`, as documented. */
export type WireInit<Method extends ApiMethod, Wire extends string> = MaybeOptionalInit<
  paths[RouteFor<Wire>],
  Method
>;

/** The second argument is optional when nothing in it is required (as in openapi-fetch). */
export type InitParam<Init> = keyof {
  [K in keyof Init as undefined extends Init[K] ? never : K]: Init[K];
} extends never
  ? [init?: Init]
  : [init: Init];

/** openapi-fetch's answer: `data` (the documented success body) or `error`, and the response. */
export type WireResponse<
  Method extends ApiMethod,
  Wire extends string,
  Init = object,
> = FetchResponse<NonNullable<Operation<Method, Wire>>, Init, `${string}/${string}`>;

/** The documented success body of a call. */
export type WireData<Method extends ApiMethod, Wire extends string> = NonNullable<
  WireResponse<Method, Wire>['data']
>;

/** Not inferred from the argument, so that a misspelt field is an excess property for tsc. */
export type WireCall<Method extends ApiMethod> = <Wire extends WirePath<Method>>(
  path: Wire,
  ...init: InitParam<WireInit<Method, Wire>>
) => Promise<WireResponse<Method, Wire>>;

export interface ApiClient {
  GET: WireCall<'get'>;
  POST: WireCall<'post'>;
  PUT: WireCall<'put'>;
  DELETE: WireCall<'delete'>;
}

export type ApiClientOptions = ClientOptions;

/**
 * A client of the api at `options.baseUrl` (openapi-fetch's options: fetch, serializers,
 * ...). openapi-fetch only joins the base, the path (its `{id}` filled in) and the query, so
 * it is given the wire path itself: the types above have already matched it to the document.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>(options);
  const request = client.request as (method: string, path: string, init?: object) => unknown;
  const call = (method: string) => (path: string, init?: object) => request(method, path, init);
  return {
    GET: call('GET'),
    POST: call('POST'),
    PUT: call('PUT'),
    DELETE: call('DELETE'),
  } as ApiClient;
}
