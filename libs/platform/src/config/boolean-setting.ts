/**
 * The one reading of an on/off setting (`EMBEDDED`, `RUN_WORKER`, `RATE_LIMITS`, ...), used
 * by the configuration and by everything that decides before it loads (the embedded
 * mode's choice): whatever passes validation means the same thing everywhere.
 */
const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

/** How a valid value may be written, for error messages. */
export const BOOLEAN_WORDS = [...TRUE_WORDS, ...FALSE_WORDS].join(', ');

/** true or false; `undefined` when unset; `null` when the value is none of the words. */
export function parseBooleanSetting(raw: string | undefined): boolean | undefined | null {
  if (raw === undefined) return undefined;
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return null;
}
