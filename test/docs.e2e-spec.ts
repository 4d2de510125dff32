import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticator } from 'otplib';
import { DIST, ROOT, runManage, spawnApi, SpawnedProcess } from '@test/support/api';
import {
  blocksOf,
  commandsOf,
  DocCommand,
  documents,
  missingOutput,
  RUNNABLE_LANGUAGES,
} from '@test/support/doc-blocks';
import { CONDITION_TIMEOUT_MS } from '@test/support/wait';

/**
 * Docs as tests: every command block of README.md and docs/*.md runs, in order, against the
 * built api started as its own process (the outbox provider, as in development), with the
 * built `gpumkt` on PATH. One session per document: its own HOME (the docs' `/home/ada`),
 * its values captured from earlier outputs and put where the docs write a placeholder:
 *
 *   <API_KEY>      the last `"api_key"` printed (manage user:create)
 *   <SECRET>       the last `Secret:` printed by a command other than totp-setup
 *   <TOTP_SECRET>  the `Secret:` printed by `gpumkt tfa totp-setup`
 *   <EMAIL_CODE>   the code in the newest message of the last `manage outbox:list`
 *   <TOTP_CODE>    the authenticator app's current code for <TOTP_SECRET> (a code is
 *                  accepted once: a second use waits, up to 30 s, for the app's next code)
 *
 * A command must exit 0, unless the next one is `echo $?`, which then shows its code. In a
 * `console` block the output the document shows must appear (see missingOutput).
 */

const DOCS_HOME = '/home/ada';

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

  constructor(
    private readonly api: SpawnedProcess,
    private readonly home: string,
    private readonly bin: string,
  ) {}

  async run(step: DocCommand): Promise<{ code: number | null; output: string }> {
    const command = await this.substitute(step.command, step.at);
    const output: string[] = [];
    const child = spawn('bash', ['-c', `(exit ${this.lastExit}); ${command}`], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOME: this.home,
        XDG_CONFIG_HOME: '',
        PATH: `${this.bin}:${process.env.PATH}`,
        GPUMKT_URL: this.api.url,
        GPUMKT_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CONDITION_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    this.lastExit = code ?? 1;
    const text = output.join('');
    this.capture(command, text);
    return { code, output: text };
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
      const value = name === '<TOTP_CODE>' ? await this.totpCode(at) : this.values[name];
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

  private async totpCode(at: string): Promise<string> {
    const secret = this.values['<TOTP_SECRET>'];
    if (!secret) throw new Error(`${at}: <TOTP_CODE> before any totp-setup`);
    // A code is accepted once: a second use waits for the app's next code (TOTP is time).
    const step = Math.max(Math.floor(Date.now() / 30_000), this.lastTotpStep + 1);
    const startsIn = step * 30_000 - Date.now();
    if (startsIn > 0) await sleep(startsIn + 50);
    this.lastTotpStep = step;
    return authenticator
      .clone({ epoch: step * 30_000, step: 30, digits: 6, window: 0 })
      .generate(secret);
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

  describe('runs every command block against a running api', () => {
    let api: SpawnedProcess;
    let scratch: string;
    let bin: string;

    beforeAll(async () => {
      api = await spawnApi();
      scratch = mkdtempSync(join(tmpdir(), 'docs-'));
      bin = join(scratch, 'bin');
      mkdirSync(bin);
      const gpumkt = join(bin, 'gpumkt');
      writeFileSync(
        gpumkt,
        `#!/bin/sh\nexec "${process.execPath}" "${join(DIST, 'apps/cli/src/main.js')}" "$@"\n`,
      );
      chmodSync(gpumkt, 0o755);
      // The README's quick start uses curl; a machine without it gets the subset it uses.
      if (spawnSync('sh', ['-c', 'command -v curl']).status !== 0) {
        const curl = join(bin, 'curl');
        writeFileSync(curl, `#!${process.execPath}\n${CURL_SUBSET}`);
        chmodSync(curl, 0o755);
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
        const session = new DocSession(api, home, bin);
        const commands = blocksOf(ROOT, file)
          .filter((block) => block.runs)
          .flatMap((block) => commandsOf(block));
        for (const [index, step] of commands.entries()) {
          const { code, output } = await session.run(step);
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
