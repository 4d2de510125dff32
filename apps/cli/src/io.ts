import { createInterface } from 'node:readline';

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
}

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
    readLine: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        let answered = false;
        rl.on('close', () => {
          if (!answered) resolve(null);
        });
        rl.question(question, (answer) => {
          answered = true;
          rl.close();
          resolve(answer);
        });
      }),
  };
}
