import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticator } from 'otplib';
import { ROOT, runManage, spawnApi, SpawnedProcess } from '@test/support/api';
import {
  blocksOf,
  commandsOf,
  DocCommand,
  documents,
  missingOutput,
  RUNNABLE_LANGUAGES,
} from '@test/support/doc-blocks';
import { OpenApiResponseValidator } from '@test/support/openapi-validator';
import { CONDITION_TIMEOUT_MS } from '@test/support/wait';

/**
 * Docs as tests: every command block of README.md and docs/*.md runs verbatim, in order,
 * against the built api started as its own process (the outbox provider, as in
 * development). Nothing is put on PATH for the documents: `gpumkt` is there because the
 * README's set-up runs `npm link` (with npm's global prefix in the test's scratch folder,
 * and offline). One session per document: its own HOME (the docs' `/home/ada`), its values
 * captured from earlier outputs and put where the docs write a placeholder:
 *
 *   <API_KEY>         the last `"api_key"` printed (manage user:create)
 *   <SECRET>          the last `Secret:` printed by a command other than totp-setup
 *   <TOTP_SECRET>     the `Secret:` printed by `gpumkt tfa totp-setup`
 *   <EMAIL_CODE>      the code in the newest message of the last `manage outbox:list`
 *   <TOTP_CODE>       the authenticator app's current code for <TOTP_SECRET>, once per
 *                     document: a code is accepted once, so a later one must be written
 *   <NEXT_TOTP_CODE>  the app's next code after the last one used (waits up to 30 s)
 *
 * A command must exit 0, unless the next one is `echo $?`, which then shows its code. In a
 * `console` block the output the document shows must appear (see missingOutput). A
 * `npm run -s manage` command (its output not piped) prints one JSON document on stdout.
 */

const DOCS_HOME = '/home/ada';

/** `jq [-r] FILTER` for filters `.` and `.field`: what the docs pipe into it. */
const JQ_SUBSET = `
const args = process.argv.slice(2);
const raw = args.includes('-r');
const filter = args.find((arg) => !arg.startsWith('-')) ?? '.';
let text = '';
process.stdin.on('data', (chunk) => (text += chunk));
process.stdin.on('end', () => {
  let value = JSON.parse(text);
  if (filter !== '.') value = value[filter.slice(1)];
  process.stdout.write((raw && typeof value === 'string' ? value : JSON.stringify(value, null, 2)) + '\\n');
});
`;

/** `curl [-s] [-H 'Name: value']... URL`: prints the body (exit 7 when unreachable). */
const CURL_SUBSET = `
const args = process.argv.slice(2);
const headers = {};
let url;
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '-H') { const [name, ...value] = args[++i].split(':'); headers[name.trim()] = value.join(':').trim(); }
  else if (!args[i].startsWith('-')) url = /^https?:/.test(args[i]) ? args[i] : 'http://' + args[i];
}
fetch(url, { headers }).then(async (response) => {
  process.stdout.write(await response.text());
}).catch((error) => { console.error('curl: ' + error.message); process.exit(7); });
`;

class DocSession {
  private readonly values: Record<string, string> = {};
  private lastExit = 0;
  private lastTotpStep = 0;
  private totpCodeUsed = false;

  constructor(
    private readonly api: SpawnedProcess,
    private readonly home: string,
    private readonly paths: { bin: string; npmPrefix: string },
  ) {}

  async run(step: DocCommand): Promise<{ code: number | null; output: string; stdout: string }> {
    const command = await this.substitute(step.command, step.at);
    const output: string[] = [];
    const stdout: string[] = [];
    const child = spawn('bash', ['-c', `(exit ${this.lastExit}); ${command}`], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOME: this.home,
        XDG_CONFIG_HOME: '',
        // The global commands of `npm link` land in the run's scratch folder, not the machine's.
        npm_config_prefix: this.paths.npmPrefix,
        npm_config_offline: 'true',
        PATH: `${join(this.paths.npmPrefix, 'bin')}:${this.paths.bin}:${process.env.PATH}`,
        GPUMKT_URL: this.api.url,
        GPUMKT_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      stdout.push(chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CONDITION_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    this.lastExit = code ?? 1;
    const text = output.join('');
    this.capture(command, text);
    return { code, output: text, stdout: stdout.join('') };
  }

  /** The documented output with the session's paths. */
  expected(lines: string[]): string[] {
    return lines.map((line) => line.split(DOCS_HOME).join(this.home));
  }

  private async substitute(command: string, at: string): Promise<string> {
    let text = command
      .split(DOCS_HOME)
      .join(this.home)
      .replace(/\b(localhost|127\.0\.0\.1):3000\b/g, new URL(this.api.url).host);
    for (const name of new Set(text.match(/<[A-Z_]+>/g) ?? [])) {
      const value =
        name === '<TOTP_CODE>' || name === '<NEXT_TOTP_CODE>'
          ? await this.totpCode(at, name === '<NEXT_TOTP_CODE>')
          : this.values[name];
      if (value === undefined) throw new Error(`${at}: no value for ${name} yet in this document`);
      text = text.split(name).join(value);
    }
    return text;
  }

  private capture(command: string, output: string): void {
    const apiKey = /"api_key":\s*"([^"]+)"/.exec(output);
    if (apiKey) this.values['<API_KEY>'] = apiKey[1];
    const secret = /^Secret(?: \(manual entry\))?: (\S+)$/m.exec(output);
    if (secret)
      this.values[command.includes('totp-setup') ? '<TOTP_SECRET>' : '<SECRET>'] = secret[1];
    if (command.includes('outbox:list')) {
      const json = output.slice(output.indexOf('{'));
      const { messages } = JSON.parse(json) as { messages: Array<{ body: string }> };
      const code = /\b(\d{6})\b/.exec(messages[0]?.body ?? '');
      if (code) this.values['<EMAIL_CODE>'] = code[1];
    }
  }

  /**
   * The app's current code (once per document: a reader who types it again is refused),
   * or its next one after the last used, waited for (TOTP is time).
   */
  private async totpCode(at: string, next: boolean): Promise<string> {
    const secret = this.values['<TOTP_SECRET>'];
    if (!secret) throw new Error(`${at}: a TOTP code before any totp-setup`);
    if (!next && this.totpCodeUsed) {
      throw new Error(
        `${at}: <TOTP_CODE> a second time: a code is accepted once, so a reader typing the ` +
          'same code again is refused; write <NEXT_TOTP_CODE> and say to wait for a new code',
      );
    }
    if (next && !this.totpCodeUsed) throw new Error(`${at}: <NEXT_TOTP_CODE> before <TOTP_CODE>`);
    this.totpCodeUsed = true;
    const now = Math.floor(Date.now() / 30_000);
    const step = next ? Math.max(now, this.lastTotpStep + 1) : now;
    const startsIn = step * 30_000 - Date.now();
    if (startsIn > 0) await sleep(startsIn + 50);
    this.lastTotpStep = step;
    return authenticator
      .clone({ epoch: step * 30_000, step: 30, digits: 6, window: 0 })
      .generate(secret);
  }
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('the documentation', () => {
  const files = documents(ROOT);
  const blocks = files.flatMap((file) => blocksOf(ROOT, file));

  it('says what every fenced block is (a language; command blocks that must not run say norun)', () => {
    const unmarked = blocks.filter((block) => !block.language).map((b) => `${b.file}:${b.line}`);
    expect(unmarked).toEqual([]);
    const shells = blocks
      .filter((block) => ['bash', 'shell', 'zsh'].includes(block.language))
      .map((b) => `${b.file}:${b.line} (${b.language}: write ${RUNNABLE_LANGUAGES.join(' or ')})`);
    expect(shells).toEqual([]);
  });

  it('documents every fixture section in docs/fixtures.md, and the example file holds each', async () => {
    // The loader names the sections it knows when it refuses an unknown one.
    const probe = join(mkdtempSync(join(tmpdir(), 'fixtures-')), 'unknown.json');
    writeFileSync(probe, JSON.stringify({ no_such_section: [] }));
    const refused = await runManage(['fixtures:load', probe]);
    expect(refused.code).toBe(1);
    const known = /\(known: ([^)]+)\)/.exec(refused.stderr)?.[1].split(', ') ?? [];
    expect(known).toEqual(
      expect.arrayContaining(['users', 'teams', 'contracts', 'volume_listings', 'endpoint_groups']),
    );
    const guide = readFileSync(join(ROOT, 'docs/fixtures.md'), 'utf8');
    const documented = [...guide.matchAll(/^## `(\w+)` \(order \d+\)$/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...known].sort());
    const example = JSON.parse(readFileSync(join(ROOT, 'docs/examples/fixtures.json'), 'utf8'));
    expect(Object.keys(example).sort()).toEqual([...known].sort());
  });

  it('shows request bodies their routes accept, field for field', () => {
    const document = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
    const validator = new OpenApiResponseValidator(document);
    const examples = blocks.filter((block) => block.language === 'json' && block.flags.length);
    expect(examples.length).toBeGreaterThan(0);
    for (const block of examples) {
      const [method, path] = block.flags;
      const problems = validator.checkRequestBody(method, path, JSON.parse(block.body.join('\n')));
      expect({ at: `${block.file}:${block.line}`, problems }).toEqual({
        at: `${block.file}:${block.line}`,
        problems: [],
      });
    }
  });

  it('gives recipes for one test file that select exactly the files they name', () => {
    const recipes = blocks
      .flatMap((block) => block.body)
      .filter((line) => line.startsWith('npx jest --config jest.config.js '));
    expect(recipes.length).toBeGreaterThan(0);
    for (const recipe of recipes) {
      const listed = spawnSync('bash', ['-c', `${recipe} --listTests`], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      const named = (recipe.match(/\S+\.(?:e2e-|int-)?spec\.ts/g) ?? []).map((file) =>
        join(ROOT, file),
      );
      // jest lists the files' absolute paths (and may say which project it runs first).
      const selected = listed.stdout
        .split('\n')
        .filter((line) => line.startsWith(`${ROOT}/`))
        .sort();
      expect({ recipe, selected }).toEqual({ recipe, selected: named.sort() });
    }
  });

  describe('runs every command block against a running api', () => {
    let api: SpawnedProcess;
    let scratch: string;
    let bin: string;
    let npmPrefix: string;

    beforeAll(async () => {
      api = await spawnApi();
      scratch = mkdtempSync(join(tmpdir(), 'docs-'));
      bin = join(scratch, 'bin');
      npmPrefix = join(scratch, 'npm-global');
      mkdirSync(bin);
      // The README's quick start uses curl and jq; a machine without one gets the subset used.
      for (const [tool, script] of [
        ['curl', CURL_SUBSET],
        ['jq', JQ_SUBSET],
      ]) {
        if (spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0) continue;
        writeFileSync(join(bin, tool), `#!${process.execPath}\n${script}`);
        chmodSync(join(bin, tool), 0o755);
      }
    });

    afterAll(async () => {
      await api?.stop();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    const runnable = files.filter((file) => blocksOf(ROOT, file).some((block) => block.runs));

    it.each(runnable.map((file) => basename(file)))(
      '%s',
      async (name) => {
        const file = runnable.find((path) => basename(path) === name)!;
        const home = join(scratch, name.replace(/\W/g, '-'), 'home', 'ada');
        mkdirSync(home, { recursive: true });
        const session = new DocSession(api, home, { bin, npmPrefix });
        const commands = blocksOf(ROOT, file)
          .filter((block) => block.runs)
          .flatMap((block) => commandsOf(block));
        for (const [index, step] of commands.entries()) {
          const { code, output, stdout } = await session.run(step);
          if (/^npm run -s manage\b[^|]*$/.test(step.command.trim())) {
            // As the README promises: stdout is the command's JSON document alone.
            expect({ at: step.at, parses: parsesAsJson(stdout) }).toEqual({
              at: step.at,
              parses: true,
            });
          }
          const showsCode = commands[index + 1]?.command.trim() === 'echo $?';
          if (!showsCode) {
            if (code !== 0) {
              throw new Error(`${step.at}: \`${step.command}\` exited ${code}:\n${output}`);
            }
          }
          const missing = missingOutput(session.expected(step.expected), output);
          if (missing !== null) {
            throw new Error(
              `${step.at}: \`${step.command}\` did not print\n  ${missing}\nIt printed:\n${output}`,
            );
          }
        }
      },
      300_000,
    );
  });
});
