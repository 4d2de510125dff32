import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Response recording, the guard of a refactoring that must not change behaviour: with
 * RECORD_RESPONSES=<dir>, every response an e2e test receives through `startApi().http()`
 * is appended to `<dir>/<test file>.jsonl`, normalised so that two runs of unchanged code
 * record the same lines up to order (docs/architecture.md, "Refactoring without changing
 * behaviour", shows the comparison). Kept: the status, `success` and `error` as they are,
 * `msg` and `detail` with digits and long tokens masked (ids and counts differ between
 * runs); every other value is reduced to its type. Tests of random or racing histories
 * (the fuzzer, the verification model, the races) see a different mix of outcomes in each
 * run, so their files are compared as sets of distinct lines.
 */
const RECORD_DIR = process.env.RECORD_RESPONSES;

/** Kept as they are: the codes. */
const CODE_KEYS = new Set(['success', 'error']);
/** Kept with their digits and long tokens masked: the messages. */
const MESSAGE_KEYS = new Set(['msg', 'detail']);

function normaliseText(text: string): string {
  return text.replace(/[A-Za-z0-9_-]{16,}/g, 'T').replace(/\d+/g, 'N');
}

export function normaliseBody(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normaliseBody(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, item]) => [name, normaliseBody(item, name)]),
    );
  }
  if (CODE_KEYS.has(key)) return value;
  if (MESSAGE_KEYS.has(key)) return typeof value === 'string' ? normaliseText(value) : value;
  return value === null ? null : typeof value;
}

export function recordResponse(
  method: string,
  url: string,
  status: number,
  type: string | undefined,
  body: unknown,
): void {
  if (!RECORD_DIR) return;
  const state = expect.getState();
  const file = basename(state.testPath ?? 'unknown');
  const path = normaliseText(new URL(url).pathname);
  const line = JSON.stringify({
    test: state.currentTestName ?? '(hook)',
    request: `${method} ${path}`,
    status,
    body: type && type.includes('json') ? normaliseBody(body) : (type ?? null),
  });
  mkdirSync(RECORD_DIR, { recursive: true });
  appendFileSync(join(RECORD_DIR, `${file}.jsonl`), `${line}\n`);
}
