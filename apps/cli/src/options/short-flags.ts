/**
 * The public client has a few two-letter short flags (`-ct`, `-bc`, `-id`) that commander
 * cannot declare. They are rewritten to their long forms before parsing, per command,
 * because `-id` means a method id in `tfa login` but the method to remove in `tfa delete`.
 */
const CHARGES = { '-ct': '--charge-type' };
const VERIFY = { '-bc': '--backup-code', '-id': '--method-id' };

export const MULTI_LETTER_FLAGS: Record<string, Record<string, string>> = {
  'show invoices': CHARGES,
  'show invoices-v1': CHARGES,
  'show statement': CHARGES,
  'tfa login': VERIFY,
  'tfa regen-codes': VERIFY,
  'tfa auth-new': VERIFY,
  'tfa delete': { '-bc': '--backup-code', '-id': '--id-to-delete' },
};

/** Global options that take a value, so their value is not mistaken for a command word. */
const GLOBAL_VALUE_OPTIONS = new Set(['--url', '--retry', '--api-key']);

export function expandMultiLetterFlags(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  const table = MULTI_LETTER_FLAGS[words.join(' ')];
  if (!table) return [...args];
  const end = args.indexOf('--');
  return args.map((arg, index) =>
    (end === -1 || index < end) && Object.hasOwn(table, arg)
      ? table[arg as keyof typeof table]
      : arg,
  );
}
