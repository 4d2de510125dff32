import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export interface OutputStream {
  write(text: string): void;
  isTTY: boolean;
}

/**
 * Everything the client touches outside itself, so commands and rendering can be run in
 * unit tests without a terminal, a clock or real sleeps.
 */
export interface Io {
  stdout: OutputStream;
  stderr: OutputStream;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  now(): Date;
  sleep(ms: number): Promise<void>;
  /** One line from stdin; null at end of input. */
  readLine(question: string): Promise<string | null>;
  /** One line typed at the terminal without echo (secrets); null at end of input. */
  readHidden(question: string): Promise<string | null>;
  /** All of stdin (a pipe or a file), until its end. */
  readAll(): Promise<string>;
  /**
   * Runs `cleanUp` if the user interrupts the command (Ctrl-C, SIGTERM, a closed terminal)
   * before the returned function is called; the client then exits as interrupted
   * (128 + the signal's number: 130 for Ctrl-C).
   */
  onInterrupt(cleanUp: () => void): () => void;
}

const INTERRUPTS: ReadonlyArray<[NodeJS.Signals, number]> = [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
];

export function processIo(): Io {
  return {
    stdout: {
      write: (text) => void process.stdout.write(text),
      isTTY: Boolean(process.stdout.isTTY),
    },
    stderr: {
      write: (text) => void process.stderr.write(text),
      isTTY: Boolean(process.stderr.isTTY),
    },
    stdinIsTTY: Boolean(process.stdin.isTTY),
    env: process.env,
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    readLine: (question) => ask(question, process.stderr),
    readHidden: async (question) => {
      // readline puts the terminal in raw mode and echoes through `output`: muted, nothing
      // typed is shown. The prompt goes out once raw mode is on, so nothing typed after it
      // is echoed by the terminal either.
      const answer = ask('', mutedOutput);
      process.stderr.write(question);
      const line = await answer;
      process.stderr.write('\n');
      return line;
    },
    readAll: async () => {
      let text = '';
      for await (const chunk of process.stdin) text += String(chunk);
      return text;
    },
    onInterrupt: (cleanUp) => {
      const handlers = INTERRUPTS.map(([signal, number]) => {
        const handler = () => {
          cleanUp();
          process.exit(128 + number);
        };
        process.once(signal, handler);
        return [signal, handler] as const;
      });
      return () => handlers.forEach(([signal, handler]) => process.off(signal, handler));
    },
  };
}

/** A terminal output that swallows what readline would echo. */
const mutedOutput = new Writable({ write: (_chunk, _encoding, done) => done() });

function ask(question: string, output: NodeJS.WritableStream): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY });
    let answered = false;
    rl.on('close', () => {
      if (!answered) resolve(null);
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

/**
 * A reader that stops reading (`gpumkt ... | head -1`) closes the pipe: the next write fails
 * with EPIPE. Nothing is left to say to anyone, so the client ends quietly instead of
 * crashing with an unhandled 'error' event.
 */
export function exitQuietlyOnClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}
