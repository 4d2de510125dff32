import Ajv, { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/**
 * Renders and validates a compose file with the project's own dependencies, so checking the
 * deployment files needs no Docker tooling: `yaml` parses (anchors and `<<` merges
 * included), `interpolate` applies the Compose specification's variable syntax, and the
 * Compose specification's JSON schema (shipped in the `dclint` package) validates the result.
 */

export interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string } | string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  restart?: string;
  ports?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** One problem per variable that a `${VAR:?message}` form found missing, as compose reports it. */
export class InterpolationError extends Error {
  constructor(readonly missing: { name: string; message: string }[]) {
    super(
      missing
        .map(({ name, message }) => `required variable ${name} is missing a value: ${message}`)
        .join('\n'),
    );
  }
}

/**
 * The Compose specification's interpolation: `$$` is a literal `$`; `$VAR` and `${VAR}`
 * substitute (empty when unset); `${VAR:-default}` / `${VAR-default}` use the default when
 * the variable is unset or empty / unset; `${VAR:?message}` / `${VAR?message}` refuse to
 * render. Nested expressions in defaults are interpolated too.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  const missing: { name: string; message: string }[] = [];
  const substitute = (input: string): string => {
    let out = '';
    for (let i = 0; i < input.length; i += 1) {
      const char = input[i];
      if (char !== '$') {
        out += char;
        continue;
      }
      const next = input[i + 1];
      if (next === '$') {
        out += '$';
        i += 1;
      } else if (next === '{') {
        const end = closingBrace(input, i + 1);
        const body = input.slice(i + 2, end);
        out += expand(body);
        i = end;
      } else {
        const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(i + 1))?.[0];
        if (!name) {
          out += char;
          continue;
        }
        out += env[name] ?? '';
        i += name.length;
      }
    }
    return out;
  };
  const expand = (body: string): string => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([\s\S]*))?$/.exec(body);
    if (!match) throw new Error(`invalid interpolation format for \${${body}}`);
    const [, name, colon, operator, argument = ''] = match;
    const value = env[name];
    const absent = value === undefined || (colon === ':' && value === '');
    if (operator === '-') return absent ? substitute(argument) : value!;
    if (operator === '?') {
      if (absent) missing.push({ name, message: substitute(argument) });
      return value ?? '';
    }
    if (operator === '+') return absent ? '' : substitute(argument);
    return value ?? '';
  };
  const result = substitute(text);
  if (missing.length > 0) throw new InterpolationError(missing);
  return result;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unclosed \${ at offset ${open}`);
}

let validator: ValidateFunction | undefined;

/**
 * The Compose specification's JSON schema, as the dclint package ships it. It is draft-07,
 * Ajv's default; its `$schema` spells the meta-schema's address with https, which Ajv does
 * not know under that name, so it is dropped.
 */
function composeValidator(): ValidateFunction {
  if (!validator) {
    const packageDir = dirname(require.resolve('dclint/package.json'));
    const schema = JSON.parse(
      readFileSync(join(packageDir, 'schemas/compose.schema.json'), 'utf8'),
    ) as Record<string, unknown>;
    delete schema.$schema;
    validator = new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  return validator;
}

/**
 * Parses, interpolates and validates a compose file; throws InterpolationError when a
 * required variable is missing and an Error listing the schema violations otherwise.
 * Interpolation applies to values only (as compose does), so it runs on the parsed tree.
 */
export function renderCompose(file: string, env: Record<string, string | undefined>): ComposeFile {
  const tree: unknown = parse(readFileSync(file, 'utf8'), { merge: true });
  const missing: InterpolationError['missing'] = [];
  const rendered = mapStrings(tree, (value) => {
    try {
      return interpolate(value, env);
    } catch (error) {
      if (!(error instanceof InterpolationError)) throw error;
      // Anchored blocks are copied into several services: report each variable once.
      for (const problem of error.missing) {
        if (!missing.some(({ name }) => name === problem.name)) missing.push(problem);
      }
      return value;
    }
  });
  if (missing.length > 0) throw new InterpolationError(missing);
  const validate = composeValidator();
  if (!validate(rendered)) {
    const problems = (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
    );
    throw new Error(`${file} does not follow the Compose specification:\n${problems.join('\n')}`);
  }
  return rendered as ComposeFile;
}

function mapStrings(node: unknown, map: (value: string) => string): unknown {
  if (typeof node === 'string') return map(node);
  if (Array.isArray(node)) return node.map((item) => mapStrings(item, map));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, mapStrings(value, map)]),
    );
  }
  return node;
}

/** A service's environment with every value a string, as the container would see it. */
export function environmentOf(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [name, value === null ? '' : String(value)]),
  );
}
