import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
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

  /**
   * Problems with a request body a document shows for `method path`: a field the route
   * does not declare (the schemas allow extra fields, a reader's request would not do what
   * the document says), or a value its schema refuses.
   */
  checkRequestBody(method: string, path: string, body: unknown): string[] {
    const template = this.templates.find((entry) => entry.pattern.test(path));
    const operation = template && this.document.paths[template.path][method.toLowerCase()];
    const schema = operation?.requestBody?.content?.['application/json']?.schema as
      { $ref?: string; properties?: Record<string, unknown> } | undefined;
    if (!schema) return [`${method} ${path}: no JSON request body in the OpenAPI document`];
    const declared = (
      schema.$ref ? this.document.components?.schemas?.[schema.$ref.split('/').pop()!] : schema
    ) as { properties?: Record<string, unknown> } | undefined;
    const known = Object.keys(declared?.properties ?? {});
    const fields = typeof body === 'object' && body !== null ? Object.keys(body) : [];
    const problems = fields
      .filter((field) => !known.includes(field))
      .map((field) => `${method} ${path}: no field '${field}' (it takes ${known.join(', ')})`);
    const validate = this.ajv.compile(toJsonSchema(schema) as object);
    if (!validate(body))
      problems.push(`${method} ${path}: ${this.ajv.errorsText(validate.errors)}`);
    return problems;
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

interface LintedOperation {
  operationId?: string;
  parameters?: Array<{ in?: string; name?: string; required?: boolean; $ref?: string }>;
  security?: Array<Record<string, unknown>>;
}

interface LintedDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { securitySchemes?: Record<string, unknown> };
  security?: Array<Record<string, unknown>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * What the JSON Schema of OpenAPI cannot say and `redocly lint` checks (rules
 * path-parameters-defined, operation-operationId-unique, no-identical-paths,
 * security-defined): every path template parameter is declared as a required path
 * parameter and every declared one is in the template; operationIds are unique; no two
 * paths differ only in parameter names; security requirements name defined schemes.
 */
export function semanticProblems(document: LintedDocument): string[] {
  const problems: string[] = [];
  const operationIds = new Map<string, string>();
  const shapes = new Map<string, string>();
  const schemes = new Set(Object.keys(document.components?.securitySchemes ?? {}));
  const checkSecurity = (where: string, requirements: LintedOperation['security']) => {
    for (const requirement of requirements ?? [])
      for (const name of Object.keys(requirement))
        if (!schemes.has(name)) problems.push(`${where}: security scheme "${name}" is not defined`);
  };
  checkSecurity('document', document.security);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const shape = path.replace(/\{[^}]+\}/g, '{}');
    if (shapes.has(shape)) problems.push(`${path}: identical to ${shapes.get(shape)}`);
    shapes.set(shape, path);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const shared = ((item.parameters ?? []) as LintedOperation['parameters']) ?? [];
    for (const method of METHODS) {
      const operation = item[method] as LintedOperation | undefined;
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const declared = [...shared, ...(operation.parameters ?? [])].filter(
        (parameter) => parameter.in === 'path',
      );
      for (const name of templated) {
        const parameter = declared.find((candidate) => candidate.name === name);
        if (!parameter) problems.push(`${where}: path parameter "${name}" is not declared`);
        else if (parameter.required !== true)
          problems.push(`${where}: path parameter "${name}" must be required`);
      }
      for (const parameter of declared)
        if (!templated.includes(parameter.name ?? ''))
          problems.push(`${where}: path parameter "${parameter.name}" is not in the path`);
      if (operation.operationId) {
        const first = operationIds.get(operation.operationId);
        if (first) problems.push(`${where}: operationId ${operation.operationId} also on ${first}`);
        else operationIds.set(operation.operationId, where);
      }
      checkSecurity(where, operation.security);
    }
  }
  return problems;
}

/**
 * Lints a document as `redocly lint` would for correctness: validation against the
 * official OpenAPI 3.0/3.1 JSON Schemas with every $ref resolved (by
 * @seriousme/openapi-schema-validator), plus the semantic rules above. The schema
 * validator is an ES module that reads its schemas through import.meta, so it runs in a
 * child Node process.
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
  const schema = JSON.parse(run.stdout) as { valid: boolean; errors: unknown[] };
  const errors = [
    ...(Array.isArray(schema.errors) ? schema.errors : [schema.errors]).filter(Boolean),
    ...semanticProblems(document as LintedDocument),
  ];
  return { valid: schema.valid && errors.length === 0, errors };
}
