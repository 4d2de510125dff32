import { Command } from 'commander';
import { CommandContext } from '../context';
import { bashCompletion, zshCompletion } from './completion.render';

/** The script of a shell for the whole command tree of `program`. */
export function printCompletion(program: Command) {
  return (context: CommandContext, shell: 'bash' | 'zsh'): void => {
    const script = shell === 'bash' ? bashCompletion(program) : zshCompletion(program);
    if (context.raw) context.printJson({ shell, script });
    else context.io.stdout.write(script);
  };
}
