import { InvalidArgumentError } from 'commander';
import { gpuRamGbToMb } from './gpu-ram';

export interface NumberRule {
  integer?: boolean;
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  greaterThan?: number;
  /** Inclusive upper bound. */
  max?: number;
}

/**
 * Parses a numeric option strictly (no trailing garbage, no NaN/Infinity) and checks its
 * bounds. The thrown InvalidArgumentError becomes commander's usage error (exit 2).
 */
export function parseNumber(value: string, rule: NumberRule = {}): number {
  const trimmed = value.trim();
  const pattern = rule.integer ? /^[+-]?\d+$/ : /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
  if (!pattern.test(trimmed)) {
    throw new InvalidArgumentError(
      rule.integer ? 'Expected a whole number.' : 'Expected a number.',
    );
  }
  const number = Number(trimmed);
  if (!Number.isFinite(number) || (rule.integer && !Number.isSafeInteger(number))) {
    throw new InvalidArgumentError('Number out of range.');
  }
  if (rule.min !== undefined && number < rule.min) {
    throw new InvalidArgumentError(`Must be at least ${rule.min}.`);
  }
  if (rule.greaterThan !== undefined && number <= rule.greaterThan) {
    throw new InvalidArgumentError(`Must be greater than ${rule.greaterThan}.`);
  }
  if (rule.max !== undefined && number > rule.max) {
    const shown = rule.integer ? String(rule.max) : rule.max.toFixed(1);
    throw new InvalidArgumentError(`Must be at most ${shown}.`);
  }
  return number;
}

export const numberOption =
  (rule: NumberRule = {}) =>
  (value: string): number =>
    parseNumber(value, rule);

/** A GB figure on the command line, MB on the wire. */
export const gpuRamOption = (value: string): number => gpuRamGbToMb(parseNumber(value, { min: 0 }));

/** `t`, `true`, `f`, `false`, any case. */
export function parseBooleanWord(value: string): boolean {
  const word = value.trim().toLowerCase();
  if (word === 't' || word === 'true') return true;
  if (word === 'f' || word === 'false') return false;
  throw new InvalidArgumentError('Expected true or false.');
}

export const choiceOption =
  <T extends string>(choices: readonly T[]) =>
  (value: string): T => {
    if ((choices as readonly string[]).includes(value)) return value as T;
    throw new InvalidArgumentError(`Allowed: ${choices.join(', ')}.`);
  };
