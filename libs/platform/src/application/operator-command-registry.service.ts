/**
 * Operator commands (`npm run manage -- <name>`) contributed by the contexts. Each prints
 * one JSON document on stdout, so tests, demos and scripts can read the result.
 */
/**
 * Progress of a long command, for the person waiting: `done` of `total` `unit` in the
 * current phase. `manage` draws a bar on a terminal and prints plain lines otherwise, on
 * stderr (stdout carries only the result).
 */
export interface OperatorProgress {
  report(phase: string, done: number, total: number, unit: string): void;
}

export interface OperatorCommandContext {
  progress: OperatorProgress;
}

export interface OperatorCommand {
  name: string;
  description: string;
  /** commander-style: `<file>` arguments. */
  arguments?: string[];
  /** commander-style flags with descriptions, e.g. ['--email <email>', 'login email']. */
  options?: Array<[flags: string, description: string, defaultValue?: string | number | boolean]>;
  run(
    args: string[],
    options: Record<string, unknown>,
    context: OperatorCommandContext,
  ): Promise<unknown>;
}

export class OperatorCommandRegistry {
  private readonly commands = new Map<string, OperatorCommand>();

  register(command: OperatorCommand): void {
    this.commands.set(command.name, command);
  }

  all(): OperatorCommand[] {
    return [...this.commands.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
