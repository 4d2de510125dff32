/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC starts colour, title
 * and cursor sequences, BEL rings, CR and LF break lines), DEL, C1 controls (U+009B is a
 * one-byte CSI), and the bidirectional-text controls that reorder what is shown.
 */
const UNSHOWABLE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(char: string): string {
  const code = char.codePointAt(0)!;
  if (NAMED[char]) return NAMED[char];
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * A string the api sent (a label, a user agent, a reason, a message) as the terminal may
 * show it: every control character shown escaped (`\x1b`, `\n`, `\u202e`), the rest as it
 * is. The one sanitiser of the client's output: tables, trees, charts, messages.
 */
export function terminalText(value: string): string {
  return value.replace(UNSHOWABLE, escaped);
}
