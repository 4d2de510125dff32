import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

/** OpenAPI 3.0 `nullable: true` is not JSON Schema: widen the type instead. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace('#/components/schemas/', 'openapi#/components/schemas/');
    else if (key !== 'nullable' && key !== 'example' && key !== 'examples')
      out[key] = toJsonSchema(value);
  }
  const original = schema as { nullable?: boolean; type?: unknown };
  if (original.nullable === true) {
    if (typeof original.type === 'string') out.type = [original.type, 'null'];
    else if (out.$ref || out.allOf || out.oneOf) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/**
 * Checks responses against the generated OpenAPI document: the operation must exist, the
 * status must be documented, and a JSON body must match the documented schema.
 */
export class OpenApiResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction | null>();
  private readonly templates: Array<{ pattern: RegExp; path: string }>;

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(
      toJsonSchema({ components: document.components ?? {} }) as object,
      'openapi',
    );
    this.templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\/$/, '').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
    }));
  }

  /** Problems with this response, empty when it conforms (or the path is not an API route). */
  check(method: string, url: string, status: number, body: unknown): string[] {
    const path = new URL(url, 'http://x').pathname.replace(/^\/{2,}/, '/');
    const template = this.templates.find((entry) => entry.pattern.test(path));
    if (!template)
      return status === 404 || !path.startsWith('/api/') || path === '/api/v0/openapi.json'
        ? []
        : [`${method} ${path}: route not in the OpenAPI document`];
    const operation = this.document.paths[template.path][method.toLowerCase()];
    if (!operation)
      return status === 404 ? [] : [`${method} ${template.path}: method not documented`];
    const responses = operation.responses ?? {};
    const response =
      responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (!response) return [`${method} ${template.path}: status ${status} not documented`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [];
    const key = `${method} ${template.path} ${status}`;
    if (!this.compiled.has(key))
      this.compiled.set(key, this.ajv.compile(toJsonSchema(schema) as object));
    const validate = this.compiled.get(key)!;
    if (validate(body)) return [];
    return [
      `${key}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 200)}`,
    ];
  }
}

/**
 * Validates a document against the official OpenAPI schemas. The validator is an ES
 * module that reads its schemas through import.meta, so it runs in a child Node process.
 */
export function lintOpenApiDocument(document: unknown): { valid: boolean; errors: unknown[] } {
  const script = `
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const result = await new Validator().validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors ?? [] }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(document),
    encoding: 'utf8',
    cwd: join(__dirname, '..', '..'),
  });
  if (run.status !== 0) throw new Error(`OpenAPI validator failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { valid: boolean; errors: unknown[] };
}
