import { choiceOption } from '../options/validation';
import { CommandKit, examples } from './command-kit';
import { printCompletion } from './completion.handlers';

export function registerCompletionCommand(kit: CommandKit): void {
  kit.program
    .command('completion')
    .description('Print a shell completion script')
    .argument('<shell>', 'bash or zsh (required)', choiceOption(['bash', 'zsh'] as const))
    .addHelpText(
      'after',
      examples(
        'source <(gpumkt completion bash)',
        'gpumkt completion bash > ~/.local/share/bash-completion/completions/gpumkt',
        "echo 'source <(gpumkt completion zsh)' >> ~/.zshrc",
      ),
    )
    .action(kit.action(printCompletion(kit.program)));
}
