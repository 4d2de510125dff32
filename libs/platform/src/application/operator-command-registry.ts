/**
 * Operator commands (`npm run manage -- <name>`) contributed by the contexts. Each prints
 * one JSON document on stdout, so tests, demos and scripts can read the result.
 */
export interface OperatorCommand {
  name: string;
  description: string;
  /** commander-style: `<file>` arguments. */
  arguments?: string[];
  /** commander-style flags with descriptions, e.g. ['--email <email>', 'login email']. */
  options?: Array<[flags: string, description: string, defaultValue?: string | boolean]>;
  run(args: string[], options: Record<string, unknown>): Promise<unknown>;
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
