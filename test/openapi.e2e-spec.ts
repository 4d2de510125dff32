import { startApi, TestApi } from '@test/support/api';
import { lintOpenApiDocument, OpenApiDocument } from '@test/support/openapi-validator';

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

  it('documents every API route the server serves', () => {
    const router = api.app.getHttpAdapter().getInstance()._router ?? api.app.getHttpAdapter().getInstance().router;
    const served = new Set<string>();
    for (const layer of router.stack as Array<{ route?: { path: string; methods: Record<string, boolean> } }>) {
      if (!layer.route || !layer.route.path.startsWith('/api/v0/') || layer.route.path === '/api/v0/openapi.json') continue;
      for (const method of Object.keys(layer.route.methods)) served.add(`${method} ${layer.route.path.replace(/:(\w+)/g, '{$1}')}`);
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
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
        if (!success.some(([, response]) => response.content?.['application/json']?.schema)) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
