import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contextNames, ContextNames, nameProblem, spellingProblem } from './names';
import { contextFiles } from './templates';
import { nextMigrationId, treeProblem, wiringEdits, WiringError } from './wiring';

/**
 * `npm run new:context -- <name> [--entity <noun>]`: writes the skeleton of a context and
 * wires it into the tree (docs/architecture.md "Adding a context"). Refuses a bad or taken
 * name with one line and exit code 2, before writing anything.
 */
const USAGE = 'usage: npm run new:context -- <name> [--entity <noun>] (both kebab-case)';

function refuse(reason: string): never {
  process.stderr.write(`new:context: ${reason}\n`);
  process.exit(2);
}

function parseArguments(args: string[]): { context: string; entity?: string } {
  const positional: string[] = [];
  let entity: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    if (args[index] === '--entity') {
      entity = args[index + 1];
      index += 1;
      if (entity === undefined) refuse(USAGE);
    } else if (args[index].startsWith('-')) {
      refuse(`unknown option ${args[index]}; ${USAGE}`);
    } else {
      positional.push(args[index]);
    }
  }
  if (positional.length !== 1) refuse(USAGE);
  return { context: positional[0], entity };
}

function namesOf(root: string, args: string[]): ContextNames {
  const { context, entity } = parseArguments(args);
  for (const name of [context, ...(entity === undefined ? [] : [entity])]) {
    const problem = nameProblem(name);
    if (problem) refuse(problem);
  }
  const names = contextNames(context, entity);
  const problem = spellingProblem(names) ?? treeProblem(root, names);
  if (problem) refuse(problem);
  return names;
}

function run(root: string, command: string, args: string[]): void {
  process.stdout.write(`\n$ ${[command, ...args].join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new WiringError(
      `'${[command, ...args].join(' ')}' failed (exit ${result.status}); the files above are ` +
        'written: fix the cause and run it again',
    );
  }
}

function main(): void {
  const root = process.cwd();
  if (!existsSync(join(root, 'nest-cli.json'))) refuse('run it from the repository root');
  const names = namesOf(root, process.argv.slice(2));
  const migrationId = nextMigrationId(root);
  // Every edit is computed before anything is written: a tree the wiring cannot take is
  // refused whole.
  const edits = wiringEdits(root, names);
  const files = contextFiles(names, migrationId);
  for (const { path, text } of [...files, ...edits]) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const typescript = [...files, ...edits]
    .map((file) => file.path)
    .filter((path) => path.endsWith('.ts'));
  run(root, 'npx', ['prettier', '--log-level', 'warn', '--write', ...typescript]);
  // The OpenAPI document (and the typed client made from it) and docs/access.md's route
  // table are written from the running api, as after any change of routes.
  run(root, 'npm', ['run', '-s', 'openapi:write']);
  run(root, 'npm', ['run', '-s', 'access:write']);

  const { context: c, entity: e } = names;
  const lines = [
    '',
    `Wrote the context ${c.kebab} (migration range from ${migrationId}):`,
    ...files.map((file) => `  ${file.path}`),
    'Wired it into:',
    ...edits.map((edit) => `  ${edit.path}`),
    '  docs/openapi.json, libs/api-client (npm run openapi:write)',
    '  docs/access.md (npm run access:write)',
    'Then fill in (docs/architecture.md "Adding a context: a worked example"):',
    `  - the ${e.kebab} entity, its rules and its table; the use case, route and bodies you need`,
    `  - the permission category of api.${c.snake}.create and the bucket ${c.snake}_create's default`,
    '  - apps/manage/src/manage.module.ts, once the context has operator commands or fixtures',
    `  - docs/${c.kebab}.md and a line in the README's list of documents`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

try {
  main();
} catch (error) {
  if (!(error instanceof WiringError)) throw error;
  process.stderr.write(`new:context: ${error.message}\n`);
  process.exit(1);
}
