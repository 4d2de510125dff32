import 'reflect-metadata';
import { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError, Option } from 'commander';
import { readFile } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import {
  ConfigError,
  DomainError,
  PlatformError,
  Environment,
  FixtureRegistry,
  loadPlatformConfig,
  OperatorCommandRegistry,
  checkDatabase,
  resolveRuntime,
  runMigrations,
  StartupError,
} from '@app/platform';
import { ManageModule } from './manage.module';
import { stderrProgress } from './progress';

/** `manage`, `manage --help`, `manage help [command]`, `manage <command> --help`. */
function asksForHelp(argv: string[]): boolean {
  const args = argv.slice(2);
  return args.length === 0 || args[0] === 'help' || args.includes('--help') || args.includes('-h');
}

/**
 * Framework messages go to stderr; help asks for nothing to be done, so it gets none of
 * the warnings meant for commands that act (the development secrets, the pool budget).
 */
function stderrLogger(quiet: boolean): LoggerService {
  const write = (message: unknown): void => {
    if (!quiet) process.stderr.write(`${String(message)}\n`);
  };
  return { log: () => undefined, error: write, warn: write };
}

/**
 * `npm run -s manage -- <command>`: every command prints one JSON document on stdout;
 * failures print {"error","msg"} on stderr and exit 1.
 */
async function main(argv: string[]): Promise<void> {
  const command = argv[2];
  // migration:run applies migrations itself, so it can report what it applied. Operator
  // commands (seeding, migrations) may run long statements: no statement timeout unless set.
  // In the embedded mode this connects to the running api's database, or opens the data
  // directory itself when no api runs (see resolveRuntime).
  const runtime = await resolveRuntime(
    new Environment({
      ...process.env,
      DATABASE_STATEMENT_TIMEOUT_MS: process.env.DATABASE_STATEMENT_TIMEOUT_MS ?? '0',
      ...(command === 'migration:run' ? { MIGRATIONS_RUN: 'false' } : {}),
    }),
    { role: 'manage', command: `manage ${command ?? ''}`.trim() },
  );
  stopRuntime = runtime.stop;
  const env = runtime.env;
  if (!runtime.embedded) {
    const { databaseUrl, database } = loadPlatformConfig(env);
    await checkDatabase(databaseUrl, database);
  }
  // stdout carries only the command's JSON; framework messages go to stderr.
  const app = await NestFactory.createApplicationContext(ManageModule.register(env), {
    logger: stderrLogger(asksForHelp(argv)),
  });
  const program = new Command('manage')
    .description('Operator commands (JSON on stdout)')
    .exitOverride();
  const print = (value: unknown): void => {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  };

  program
    .command('migration:run')
    .description('Apply pending database migrations')
    .action(async () => print({ applied: await runMigrations(app.get(DataSource)) }));

  program
    .command('fixtures:load')
    .description(
      'Load a fixtures file (explicit ids, idempotent, one transaction); see docs/fixtures.md',
    )
    .argument('<file>', 'path of the JSON fixtures file')
    .action(async (file: string) => {
      let document: unknown;
      try {
        document = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new PlatformError('bad_request', `Cannot read ${file}: ${(error as Error).message}`);
      }
      print({ loaded: await app.get(FixtureRegistry).load(document) });
    });

  for (const operatorCommand of app.get(OperatorCommandRegistry).all()) {
    const sub = program.command(operatorCommand.name).description(operatorCommand.description);
    for (const argument of operatorCommand.arguments ?? []) sub.argument(argument);
    for (const [flags, description, defaultValue] of operatorCommand.options ?? []) {
      const option = new Option(flags, description);
      // A number default shows in the help as a number: (default: 10000).
      sub.addOption(defaultValue === undefined ? option : option.default(defaultValue));
    }
    sub.action(async (...received: unknown[]) => {
      const args = received.slice(0, operatorCommand.arguments?.length ?? 0) as string[];
      const options = (received[operatorCommand.arguments?.length ?? 0] ?? {}) as Record<
        string,
        unknown
      >;
      print(await operatorCommand.run(args, options, { progress: stderrProgress() }));
    });
  }

  try {
    await program.parseAsync(argv);
  } finally {
    await app.close();
    await runtime.stop();
  }
}

/** Stops the embedded database (and releases its directory) when the command fails. */
let stopRuntime: (() => Promise<void>) | undefined;

main(process.argv).catch(async (error: unknown) => {
  await stopRuntime?.().catch(() => undefined);
  if (error instanceof CommanderError) process.exit(error.exitCode);
  const body =
    error instanceof DomainError
      ? { error: error.code, msg: error.message }
      : error instanceof ConfigError
        ? { error: 'config_error', msg: error.message }
        : error instanceof StartupError
          ? { error: 'startup_error', msg: error.message }
          : {
              error: 'internal_error',
              msg: error instanceof Error ? error.message : String(error),
            };
  process.stderr.write(`${JSON.stringify(body)}\n`);
  process.exit(1);
});
