import { Command } from 'commander';
import { numberOption } from '../options/validation';
import { CommandKit, examples, Handler } from './command-kit';

/** A positional argument: `<name>` (required) or `[name]`, its help, and its parser. */
export type ArgumentSpec = readonly [
  name: string,
  description: string,
  parse?: (value: string) => unknown,
];

/** An option: its flags, its help (with its default), its parser, and whether it is required. */
export interface OptionSpec {
  flags: string;
  description: string;
  parse?: (value: string) => unknown;
  required?: boolean;
}

/** One command: what `--help` shows of it and the handler its action runs. */
export interface CommandSpec {
  description: string;
  arguments?: readonly ArgumentSpec[];
  /** In the order `--help` lists them. */
  options?: readonly OptionSpec[];
  examples: readonly string[];
  handler: Handler;
}

/**
 * Adds the command `name` under `parent` from its spec: arguments, options in order,
 * examples after the options, and the handler as its action. The one place the command
 * groups wire a command, so every command has the same parts in the same order.
 */
export function addCommand(
  kit: CommandKit,
  parent: Command,
  name: string,
  spec: CommandSpec,
): Command {
  const command = parent.command(name).description(spec.description);
  for (const [argument, description, parse] of spec.arguments ?? []) {
    if (parse) command.argument(argument, description, parse);
    else command.argument(argument, description);
  }
  for (const option of spec.options ?? []) {
    const add = (option.required ? command.requiredOption : command.option).bind(command);
    if (option.parse) add(option.flags, option.description, option.parse);
    else add(option.flags, option.description);
  }
  return command.addHelpText('after', examples(...spec.examples)).action(kit.action(spec.handler));
}

/** A group of commands (`team`, `keys`): a command of its own with a description and examples. */
export function addGroup(
  parent: Command,
  name: string,
  description: string,
  ...lines: string[]
): Command {
  return parent
    .command(name)
    .description(description)
    .addHelpText('after', examples(...lines));
}

/** A positive integer id (a key's, a member's, an invitation's). */
export const positiveId = numberOption({ integer: true, min: 1 });

/** `<id>` (or `[id]`) read as a positive integer. */
export const idArgument = (description: string, name = '<id>'): ArgumentSpec => [
  name,
  description,
  positiveId,
];

/** `--permission-file <file>`: a permission document of docs/access.md, read from a file. */
export const permissionFileOption = (description: string): OptionSpec => ({
  flags: '--permission-file <file>',
  description,
});

/** `--allow <categories...>`: a document granting these whole categories. */
export const allowOption = (description: string): OptionSpec => ({
  flags: '--allow <categories...>',
  description,
});
