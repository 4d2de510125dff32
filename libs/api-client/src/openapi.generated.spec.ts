import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * The committed client types are what the generator makes of the committed OpenAPI
 * document, so the client cannot drift from the api (whose served document a test keeps
 * equal to docs/openapi.json). The command is the one of `npm run api-client:generate`.
 */
describe('generated api client types', () => {
  const script = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts['api-client:generate'];

  it('are generated from docs/openapi.json into openapi.generated.ts', () => {
    // Request fields with a server-side default are optional for a client, not required.
    expect(script).toBe(
      'openapi-typescript docs/openapi.json --default-non-nullable false ' +
        '-o libs/api-client/src/openapi.generated.ts',
    );
  });

  it('are up to date with docs/openapi.json (run npm run api-client:generate)', () => {
    const [command, ...args] = script.split(' ');
    const output = args[args.indexOf('-o') + 1];
    const bin = join(ROOT, 'node_modules', '.bin', command);
    // The script's command without -o prints what it would write.
    const run = spawnSync(
      process.execPath,
      [bin, ...args.filter((arg, index) => arg !== '-o' && args[index - 1] !== '-o')],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(run.status).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(0);
    const committed = readFileSync(join(ROOT, output), 'utf8');
    // A plain comparison first: a mismatch of two 100 kB strings would print both whole.
    const same = run.stdout === committed;
    if (!same) {
      const lines = run.stdout.split('\n');
      const committedLines = committed.split('\n');
      const differing = committedLines.findIndex((line, index) => line !== lines[index]);
      const first = differing === -1 ? committedLines.length : differing;
      throw new Error(
        `${output} differs from the generator's output from line ${first + 1}: ` +
          'run npm run api-client:generate',
      );
    }
    expect(same).toBe(true);
  });
});
