import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContextNames } from './names';

/** An edit the tree cannot take (the file no longer looks as the generator expects). */
export class WiringError extends Error {}

/** A file the generator changes: its path and its new text. */
export interface EditedFile {
  path: string;
  text: string;
}

/** Each context's migrations keep to a range of this many ids (docs/architecture.md). */
export const MIGRATION_RANGE = 100_000;

/** The context folders of libs/ (each with a src/*.module.ts), by name. */
export function contextsOf(root: string): string[] {
  return readdirSync(join(root, 'libs'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function migrationFiles(root: string): string[] {
  return contextsOf(root).flatMap((context) => {
    const folder = join(root, 'libs', context, 'src', 'infrastructure', 'migrations');
    return existsSync(folder) ? readdirSync(folder).map((name) => join(folder, name)) : [];
  });
}

/**
 * The first id of the next free range: one range above the highest range any context's
 * migrations use (their ids are `<timestamp>-<context>-<change>.ts`).
 */
export function nextMigrationId(root: string): number {
  const ids = migrationFiles(root)
    .map((path) => /^(\d{13})-/.exec(path.split('/').pop()!)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number);
  if (ids.length === 0)
    throw new WiringError('no migrations found under libs/*/src/infrastructure/migrations');
  return (Math.floor(Math.max(...ids) / MIGRATION_RANGE) + 1) * MIGRATION_RANGE;
}

/** Why the tree cannot take a context of these names (one taken already), or null. */
export function treeProblem(root: string, names: ContextNames): string | null {
  const { context, table } = names;
  if (existsSync(join(root, 'libs', context.kebab)))
    return `'${context.kebab}' exists already (libs/${context.kebab})`;
  const creates = new RegExp(`CREATE TABLE (IF NOT EXISTS )?"?${table}"?[\\s(]`);
  const owner = migrationFiles(root).find((path) => creates.test(readFileSync(path, 'utf8')));
  if (owner) return `the table ${table} exists already (${owner.slice(root.length + 1)})`;
  const document = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as {
    paths: Record<string, unknown>;
  };
  const prefix = `/api/v0/${context.kebab}/`;
  const served = Object.keys(document.paths).find((path) => `${path}/`.startsWith(prefix));
  if (served) return `the api serves ${served} already`;
  return null;
}

function insertBefore(path: string, text: string, anchor: RegExp, insertion: string): string {
  const match = anchor.exec(text);
  if (!match) throw new WiringError(`${path}: cannot find where to add the context (${anchor})`);
  return text.slice(0, match.index) + insertion + text.slice(match.index);
}

function edit(root: string, path: string, change: (text: string) => string): EditedFile {
  const before = readFileSync(join(root, path), 'utf8');
  const text = change(before);
  if (text === before) throw new WiringError(`${path}: the context could not be added`);
  return { path, text };
}

/**
 * Everything outside the library that knows the contexts by name: the path alias
 * (tsconfig.json, jest.config.js), the boundary rules (.dependency-cruiser.js), the Nest
 * projects (nest-cli.json), the api's modules, and the access matrix test that holds one
 * request per route.
 */
export function wiringEdits(root: string, names: ContextNames): EditedFile[] {
  const { context: c } = names;
  const alternatives = /(\^@app\/\()([a-z0-9|-]+)(\))/g;
  return [
    edit(root, 'tsconfig.json', (text) =>
      insertBefore(
        'tsconfig.json',
        text,
        /^ *"@app\/api-client": /m,
        `      "@app/${c.kebab}": ["libs/${c.kebab}/src"],\n` +
          `      "@app/${c.kebab}/*": ["libs/${c.kebab}/src/*"],\n`,
      ),
    ),
    edit(root, 'jest.config.js', (text) =>
      text.replace(alternatives, (_all, open: string, list: string, close: string) =>
        list.split('|').includes('platform') ? `${open}${list}|${c.kebab}${close}` : _all,
      ),
    ),
    edit(root, '.dependency-cruiser.js', (text) =>
      text.replace(/(const CONTEXTS =\s*')([^']+)(')/, `$1$2|${c.kebab}$3`),
    ),
    edit(root, 'nest-cli.json', (text) => {
      const lines = text.split('\n');
      const end = lines.findIndex((line, index) => line === '  }' && lines[index + 1] === '}');
      if (end < 1) throw new WiringError('nest-cli.json: cannot find the end of "projects"');
      lines[end - 1] += ',';
      lines.splice(
        end,
        0,
        `    "${c.kebab}": { "type": "library", "root": "libs/${c.kebab}", "entryFile": "index", "sourceRoot": "libs/${c.kebab}/src" }`,
      );
      const edited = lines.join('\n');
      JSON.parse(edited);
      return edited;
    }),
    edit(root, 'apps/api/src/api.module.ts', (text) => {
      const imported = insertBefore(
        'apps/api/src/api.module.ts',
        text,
        /^import .* from '\.\//m,
        `import { ${c.pascal}Module } from '@app/${c.kebab}';\n`,
      );
      const list = /\n( *)imports: \[\n/.exec(imported);
      if (!list) throw new WiringError("apps/api/src/api.module.ts: cannot find the modules' list");
      const start = list.index + list[0].length;
      const close = imported.indexOf(`\n${list[1]}],`, start);
      const spread = imported.indexOf(`${list[1]}  ...(`, start);
      const at = spread >= 0 && spread < close ? spread : close + 1;
      return `${imported.slice(0, at)}${list[1]}  ${c.pascal}Module,\n${imported.slice(at)}`;
    }),
    edit(root, 'test/access-matrix.e2e-spec.ts', (text) => {
      const start = text.indexOf('const SAMPLES: Record<string, SampleOf> = {');
      const close = text.indexOf('\n};', start);
      if (start < 0 || close < 0)
        throw new WiringError('test/access-matrix.e2e-spec.ts: cannot find SAMPLES');
      const sample = `  'api.${c.snake}.create': send('post', '/api/v0/${c.kebab}/', { name: 'matrix' }),`;
      return `${text.slice(0, close)}\n${sample}${text.slice(close)}`;
    }),
  ];
}
