import { Command } from 'commander';
import { MULTI_LETTER_FLAGS } from '../options/short-flags';

/** Command path (e.g. `tfa login`) -> the words that may follow it. */
export function completionTable(program: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const globals = program.options.map((option) => option.long!).filter(Boolean);
  const walk = (command: Command, path: string[]): void => {
    const key = path.join(' ');
    const words = [
      ...command.commands.map((sub) => sub.name()),
      ...command.options.flatMap((option) =>
        [option.short, option.long].filter((flag): flag is string => !!flag),
      ),
      ...Object.keys(MULTI_LETTER_FLAGS[key] ?? {}),
      ...globals,
      '--help',
    ];
    table.set(key, [...new Set(words)]);
    for (const sub of command.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return table;
}

export function bashCompletion(program: Command): string {
  const cases = [...completionTable(program)]
    .map(([path, words]) => `    "${path}") words="${words.join(' ')}" ;;`)
    .join('\n');
  return `# gpumkt bash completion. Install: gpumkt completion bash > ~/.local/share/bash-completion/completions/gpumkt
_gpumkt() {
  local cur path="" i word words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "\${path:+$path }$word" in
${[...completionTable(program).keys()]
  .filter(Boolean)
  .map((path) => `      "${path}") path="${path}" ;;`)
  .join('\n')}
    esac
  done
  case "$path" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _gpumkt gpumkt
`;
}

/**
 * zsh runs the bash function through its own bash-completion emulation (bashcompinit),
 * which needs compinit: loaded here when the user's setup has not done it.
 */
export function zshCompletion(program: Command): string {
  return `# gpumkt zsh completion. Install: echo 'source <(gpumkt completion zsh)' >> ~/.zshrc
type compdef >/dev/null 2>&1 || { autoload -Uz compinit && compinit; }
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program)}`;
}
