import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The fenced blocks of the repo's Markdown documents. A block's language says what it is:
 * `sh` (commands, one a line) and `console` (`$ command` lines, each followed by the
 * output it prints) are run by test/docs.e2e-spec.ts; a command block that must not run
 * (it starts a server, takes minutes) says `norun` after its language; anything else
 * (`text`, `json`, ...) is not a command. A `json` block followed by a method and a path
 * (`json POST /api/v0/tfa/`) is a request body that route must accept. A block without a language is refused, so a
 * new command block cannot slip past the test.
 */
export interface DocBlock {
  file: string;
  line: number;
  language: string;
  /** The words after the language: `norun`, or the route of a `json` request body example. */
  flags: string[];
  runs: boolean;
  body: string[];
}

export const RUNNABLE_LANGUAGES = ['sh', 'console'];

export function documents(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs];
}

export function blocksOf(root: string, path: string): DocBlock[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let open: DocBlock | null = null;
  lines.forEach((text, index) => {
    const fence = /^```(.*)$/.exec(text);
    if (!fence) {
      open?.body.push(text);
      return;
    }
    if (open) {
      blocks.push(open);
      open = null;
      return;
    }
    const [language = '', ...flags] = fence[1].trim().split(/\s+/);
    open = {
      file: relative(root, path),
      line: index + 1,
      language,
      flags,
      runs: RUNNABLE_LANGUAGES.includes(language) && !flags.includes('norun'),
      body: [],
    };
  });
  if (open)
    throw new Error(`${relative(root, path)}: unclosed block at line ${(open as DocBlock).line}`);
  return blocks;
}

export interface DocCommand {
  /** Where the command is written, for failure messages. */
  at: string;
  command: string;
  /** The output the document shows (console blocks); empty for sh blocks. */
  expected: string[];
}

/** The commands of a runnable block, in order. */
export function commandsOf(block: DocBlock): DocCommand[] {
  const commands: DocCommand[] = [];
  let pending = '';
  block.body.forEach((text, index) => {
    const at = `${block.file}:${block.line + 1 + index}`;
    if (block.language === 'console') {
      if (text.startsWith('$ ')) {
        commands.push({ at, command: text.slice(2), expected: [] });
      } else if (commands.length > 0) {
        commands[commands.length - 1].expected.push(text);
      }
      return;
    }
    const line = pending + text;
    if (line.endsWith('\\')) {
      pending = `${line.slice(0, -1)} `;
      return;
    }
    pending = '';
    if (line.trim() && !line.trim().startsWith('#'))
      commands.push({ at, command: line, expected: [] });
  });
  return commands;
}

/**
 * Whether `actual` shows the documented lines, in order (other lines may come between: npm's
 * banner, notices). In a documented line `...` stands for any text and `<NAME>` for a
 * value of the session; a line that is only `...` stands for any number of lines; runs of
 * spaces match any run of spaces (table columns).
 */
export function missingOutput(expected: string[], actual: string): string | null {
  const lines = actual.split('\n').map((line) => line.trimEnd());
  let from = 0;
  for (const documented of expected) {
    const text = documented.trimEnd();
    if (!text || text.trim() === '...') continue;
    const pattern = new RegExp(
      `^${text
        .split(/(\.\.\.|<[A-Z_]+>|\s+)/)
        .map((part) =>
          part === '...' || /^<[A-Z_]+>$/.test(part)
            ? '.*'
            : /^\s+$/.test(part)
              ? '\\s+'
              : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    );
    const found = lines.findIndex((line, index) => index >= from && pattern.test(line));
    if (found < 0) return documented;
    from = found + 1;
  }
  return null;
}
