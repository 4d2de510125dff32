import calculateSlot from 'cluster-key-slot';

/** A Lua script (or, with `lua: null`, a MULTI) and the keys one call of it passes. */
export interface RedisScriptUse {
  name: string;
  lua: string | null;
  keys: string[];
}

/** Commands whose every argument is a key; all other commands take their key first. */
const ALL_ARGUMENTS_ARE_KEYS = new Set(['DEL', 'UNLINK', 'EXISTS', 'TOUCH']);
const TWO_KEYS = new Set(['RENAME', 'RENAMENX', 'SMOVE', 'LMOVE', 'COPY']);

/**
 * What stops a script from running on a Redis Cluster: its keys spread over several hash
 * slots, or a `redis.call` whose key is not one of the script's KEYS (a key built inside
 * the script is never routed by the client nor checked by the server). Empty when safe.
 */
export function slotProblems(use: RedisScriptUse): string[] {
  const problems: string[] = [];
  const slots = new Set(use.keys.map((key) => calculateSlot(key)));
  if (slots.size > 1) {
    problems.push(`${use.name}: keys ${use.keys.join(', ')} span ${slots.size} hash slots`);
  }
  if (use.lua === null) return problems;
  const call = /redis\.p?call\(/g;
  let match: RegExpExecArray | null;
  while ((match = call.exec(use.lua)) !== null) {
    const args = splitArguments(use.lua, match.index + match[0].length);
    const command = /^'([A-Za-z]+)'$/.exec(args[0] ?? '')?.[1]?.toUpperCase();
    if (!command) {
      problems.push(`${use.name}: a command name that is not a literal (${args[0]})`);
      continue;
    }
    const keyArgs = ALL_ARGUMENTS_ARE_KEYS.has(command)
      ? args.slice(1)
      : args.slice(1, TWO_KEYS.has(command) ? 3 : 2);
    for (const arg of keyArgs) {
      const index = /^KEYS\[(\d+)\]$/.exec(arg);
      if (!index) {
        problems.push(`${use.name}: ${command} touches '${arg}', which is not one of its KEYS`);
      } else if (Number(index[1]) < 1 || Number(index[1]) > use.keys.length) {
        problems.push(
          `${use.name}: ${command} uses ${arg} but is called with ${use.keys.length} keys`,
        );
      }
    }
  }
  for (const loop of use.lua.matchAll(/ipairs\(KEYS\)/g)) {
    problems.push(`${use.name}: iterates KEYS at ${loop.index}; name each key instead`);
  }
  return problems;
}

/** The top-level comma-separated arguments of a call whose '(' ends just before `from`. */
function splitArguments(source: string, from: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | null = null;
  for (let i = from; i < source.length; i += 1) {
    const char = source[i];
    if (quote) {
      current += char;
      if (char === quote) quote = null;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') {
      if (depth === 0) break;
      depth -= 1;
    } else if (char === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim()) args.push(current.trim());
  return args;
}
