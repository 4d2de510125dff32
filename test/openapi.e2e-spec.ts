import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startApi, TestApi } from '@test/support/api';
import {
  lintOpenApiDocument,
  OpenApiDocument,
  OpenApiResponseValidator,
} from '@test/support/openapi-validator';

/** The interface description cannot drift: it is generated from the code and linted here. */
describe('OpenAPI document', () => {
  let api: TestApi;
  let document: OpenApiDocument & { info: { version: string }; openapi: string };

  beforeAll(async () => {
    api = await startApi();
    document = (await api.http().get('/api/v0/openapi.json')).body;
  });

  afterAll(() => api.close());

  it('is a valid OpenAPI 3 document with version 1.0.0', async () => {
    const result = lintOpenApiDocument(document);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
  });

  /**
   * The committed document is the interface: a change to a route, a body or an error shows
   * up in review as a change to docs/openapi.json. `npm run openapi:write` rewrites it.
   */
  it('is the committed docs/openapi.json, byte for byte', () => {
    const committedPath = join(ROOT, 'docs', 'openapi.json');
    const live = `${JSON.stringify(document, null, 2)}\n`;
    if (process.env.OPENAPI_WRITE === '1') writeFileSync(committedPath, live);
    expect(live).toBe(readFileSync(committedPath, 'utf8'));
  });

  it('documents every API route the server serves', () => {
    const router =
      api.app.getHttpAdapter().getInstance()._router ??
      api.app.getHttpAdapter().getInstance().router;
    const served = new Set<string>();
    for (const layer of router.stack as Array<{
      route?: { path: string; methods: Record<string, boolean> };
    }>) {
      if (
        !layer.route ||
        !layer.route.path.startsWith('/api/v0/') ||
        layer.route.path === '/api/v0/openapi.json'
      )
        continue;
      for (const method of Object.keys(layer.route.methods))
        served.add(`${method} ${layer.route.path.replace(/:(\w+)/g, '{$1}')}`);
    }
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method} ${path}`);
    }
    expect([...served].filter((route) => !documented.has(route))).toEqual([]);
    expect(served.size).toBeGreaterThan(0);
  });

  it('gives every operation a success response with a schema', () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) =>
          status.startsWith('2'),
        );
        // JSON for every route; the export's file types (text/csv, NDJSON) for the export.
        if (
          !success.some(([, response]) =>
            Object.values(response.content ?? {}).some((media) => media.schema),
          )
        )
          missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("documents the platform's own failures on every operation, with the error envelope", () => {
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations) as Array<
        [
          string,
          {
            responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
            security?: unknown[];
          },
        ]
      >) {
        const statuses = [
          '400',
          '500',
          '503',
          ...((operation.security ?? []).length > 0 ? ['403', '404'] : []),
        ];
        for (const status of statuses) {
          if (!operation.responses?.[status]?.content?.['application/json']?.schema)
            missing.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
    // Rate-limited routes document their {detail} body, and so does every Bearer route (too
    // many requests of one credential in flight); public routes do not promise a 429.
    const charges = document.paths['/api/v0/charges'].get.responses!['429'];
    expect(charges.content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RateLimitedDto',
    });
    expect(
      document.paths['/api/v0/users/current'].get.responses!['429'].content!['application/json']
        .schema,
    ).toEqual({ $ref: '#/components/schemas/RateLimitedDto' });
    expect(document.paths['/api/v0/users/login'].post.responses!['429']).toBeUndefined();
  });

  describe('the lint fails documents that break the rules', () => {
    const broken: Array<[string, (doc: typeof document) => void, RegExp]> = [
      [
        'an unresolvable $ref',
        (doc) => {
          doc.paths['/api/v0/charges'].get.responses!['200'].content!['application/json'].schema = {
            $ref: '#/components/schemas/Nowhere',
          };
        },
        /Nowhere/,
      ],
      [
        'a path parameter that is not declared',
        (doc) => {
          (doc.paths['/api/v0/endptjobs/{id}'].put as { parameters?: unknown[] }).parameters = [];
        },
        /path parameter "id" is not declared/,
      ],
      [
        'a duplicate operationId',
        (doc) => {
          const first = doc.paths['/api/v0/users/current'].get as { operationId?: string };
          (doc.paths['/api/v0/charges'].get as { operationId?: string }).operationId =
            first.operationId;
        },
        /operationId .* also on/,
      ],
      [
        'an undefined security scheme',
        (doc) => {
          (doc.paths['/api/v0/charges'].get as { security?: unknown[] }).security = [
            { cookie: [] },
          ];
        },
        /security scheme "cookie" is not defined/,
      ],
      [
        'a response without a description',
        (doc) => {
          delete (doc.paths['/api/v0/charges'].get.responses!['200'] as { description?: string })
            .description;
        },
        /description/,
      ],
    ];
    it.each(broken)('%s', (_name, breakIt, expected) => {
      const copy = structuredClone(document);
      breakIt(copy);
      const result = lintOpenApiDocument(copy);
      expect(result.valid).toBe(false);
      const messages = result.errors.map((error) =>
        typeof error === 'string' ? error : JSON.stringify(error),
      );
      expect(messages.join('\n')).toMatch(expected);
    });
  });

  it('makes the response validator refuse what the document does not promise', () => {
    const validator = new OpenApiResponseValidator(document);
    const charges = '/api/v0/charges/?select_filters=x';
    expect(validator.check('GET', charges, 200, { success: true })).toEqual([
      expect.stringContaining('GET /api/v0/charges 200'),
    ]);
    expect(validator.check('GET', charges, 429, { success: false, msg: 'x' })).toEqual([
      expect.stringContaining('429'),
    ]);
    expect(validator.check('GET', charges, 403, { detail: 'x' })).toEqual([
      expect.stringContaining('403'),
    ]);
    expect(validator.check('POST', '/api/v0/not-a-route', 200, {})).toEqual([
      'POST /api/v0/not-a-route: route not in the OpenAPI document',
    ]);
    expect(
      validator.check('GET', charges, 403, {
        success: false,
        error: 'auth_error',
        msg: 'This action requires login.',
      }),
    ).toEqual([]);
  });
});
