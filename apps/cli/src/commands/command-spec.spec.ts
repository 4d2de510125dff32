import { Command } from 'commander';
import { Io } from '../io';
import { CommandKit } from './command-kit';
import { addCommand, addGroup, allowOption, idArgument } from './command-spec';

function kitWith(output: string[]): CommandKit {
  const program = new Command('gpumkt').exitOverride().configureOutput({
    writeOut: (text) => output.push(text),
    writeErr: (text) => output.push(text),
  });
  return new CommandKit(program, { env: {} } as unknown as Io);
}

describe('addCommand', () => {
  it('wires arguments, options in order, examples and the handler', async () => {
    const output: string[] = [];
    const kit = kitWith(output);
    const calls: unknown[][] = [];
    const group = addGroup(kit.program, 'thing', 'Things', 'gpumkt thing make 7');
    addCommand(kit, group, 'make', {
      description: 'Make a thing',
      arguments: [idArgument('thing id'), ['[label]', 'a label']],
      options: [
        { flags: '--name <name>', description: 'its name (required)', required: true },
        allowOption('categories (default: none)'),
      ],
      examples: ['gpumkt thing make 7 --name x'],
      handler: (_context: unknown, ...args: unknown[]) => {
        calls.push(args);
      },
    });

    await kit.program.parseAsync(
      ['thing', 'make', '7', 'lbl', '--name', 'x', '--allow', 'a', 'b'],
      {
        from: 'user',
      },
    );
    expect(calls).toEqual([[7, 'lbl', { name: 'x', allow: ['a', 'b'] }]]);

    const help = helpOf(group.commands[0]);
    expect(help).toContain('Usage: gpumkt thing make [options] <id> [label]');
    expect(help.indexOf('--name <name>')).toBeLessThan(help.indexOf('--allow <categories...>'));
    expect(help).toContain('Examples:\n  $ gpumkt thing make 7 --name x\n');

    await expect(
      kit.program.parseAsync(['thing', 'make', '0', '--name', 'x'], { from: 'user' }),
    ).rejects.toThrow(/Must be at least 1/);
    await expect(kit.program.parseAsync(['thing', 'make', '7'], { from: 'user' })).rejects.toThrow(
      /required option '--name <name>' not specified/,
    );
    expect(calls).toHaveLength(1);
  });
});

/** A command's whole help, the text added after its options included. */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}
