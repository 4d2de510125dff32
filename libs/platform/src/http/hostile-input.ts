/**
 * Shape limits for decoded client input, checked once before any route sees it. No route
 * takes anything deeper than two levels, an array, a number beyond 2^53 or a control
 * character, so refusing these at the door keeps recursive code (validation, class
 * transformation) away from pathological nesting and keeps values PostgreSQL cannot store
 * (NUL) or that would be silently altered (unpaired surrogates become U+FFFD) out of the
 * database. See docs/decisions.md "Hostile input".
 */
export const INPUT_LIMITS = {
  /** Levels of objects/arrays, the body itself being level 1. */
  maxDepth: 32,
  maxArrayItems: 100,
  /** Every key and value counted once: bounds the work of validating one body. */
  maxNodes: 2_000,
} as const;

/** C0 controls except tab, line feed and carriage return, and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a decoded string cannot be accepted, or null. */
export function stringProblem(value: string): string | null {
  if (CONTROL_CHARACTER.test(value)) return 'contains a control character';
  if (LONE_SURROGATE.test(value)) return 'contains an unpaired UTF-16 surrogate';
  return null;
}

/**
 * Why a parsed JSON body cannot be accepted, or null; a problem with one value names its
 * field the way validation errors do (`Invalid request: <field>: <reason>`). Iterative,
 * so it never recurses on the very input it guards against.
 */
export function jsonBodyProblem(body: unknown): string | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [
    { value: body, depth: 1, path: '' },
  ];
  let nodes = 0;
  const at = (path: string, problem: string) =>
    `Invalid request: ${path === '' ? 'body' : path}: ${problem}`;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (++nodes > INPUT_LIMITS.maxNodes)
      return `Invalid request: body has more than ${INPUT_LIMITS.maxNodes} values`;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) return at(path, problem);
      continue;
    }
    if (typeof value === 'number') {
      // JSON.parse turns 1e999 into Infinity and rounds integers past 2^53: either way the
      // value is not what the client wrote.
      if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
        return at(path, `number outside ±${Number.MAX_SAFE_INTEGER}`);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > INPUT_LIMITS.maxDepth)
      return `Invalid request: body nests deeper than ${INPUT_LIMITS.maxDepth} levels`;
    if (Array.isArray(value)) {
      if (value.length > INPUT_LIMITS.maxArrayItems)
        return at(path, `more than ${INPUT_LIMITS.maxArrayItems} items`);
      value.forEach((item, index) =>
        stack.push({ value: item, depth: depth + 1, path: `${path}[${index}]` }),
      );
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = stringProblem(key);
      if (keyProblem) return at(path, `a field name ${keyProblem}`);
      nodes += 1;
      const name = safeKey(key);
      stack.push({ value: item, depth: depth + 1, path: path === '' ? name : `${path}.${name}` });
    }
  }
  return null;
}

/** Field names echo back in messages: keep them short and printable. */
function safeKey(key: string): string {
  return key.length <= 40 ? key : `${key.slice(0, 40)}…`;
}

/** Why a query string's decoded keys or values cannot be accepted, or null. */
export function queryProblem(url: string): string | null {
  const start = url.indexOf('?');
  if (start < 0) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(url.slice(start + 1));
  } catch {
    return 'Malformed query string';
  }
  for (const [key, value] of params) {
    const problem = stringProblem(key) ?? stringProblem(value);
    if (problem)
      return `Invalid request: query parameter ${stringProblem(key) ? '' : `${safeKey(key)} `}${problem}`;
  }
  return null;
}
