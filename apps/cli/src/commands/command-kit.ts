import { Command } from 'commander';
import { CommandContext, readGlobalOptions } from '../context';
import { Io } from '../io';

export type Handler = (context: CommandContext, ...args: never[]) => Promise<void> | void;

/** Shared plumbing for the command-group modules. */
export class CommandKit {
  constructor(
    readonly program: Command,
    readonly io: Io,
  ) {}

  /** The verb (`show`, `create`, ...) that groups commands, created on first use. */
  verb(name: string, description: string): Command {
    const existing = this.program.commands.find((command) => command.name() === name);
    if (existing) return existing;
    return this.program.command(name).description(description);
  }

  /**
   * Wraps a handler as a commander action: the handler receives the context, then the
   * positional arguments, then the command's own options.
   */
  action(handler: (context: CommandContext, ...args: never[]) => Promise<void> | void) {
    return async (...args: unknown[]): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const context = new CommandContext(this.io, readGlobalOptions(command, this.io.env));
      await (handler as (context: CommandContext, ...rest: unknown[]) => Promise<void> | void)(
        context,
        ...args.slice(0, -1),
      );
    };
  }
}

/** Help text block appended after the options. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
