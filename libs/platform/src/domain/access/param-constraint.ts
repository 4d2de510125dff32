/**
 * A constraint on one request parameter (docs/access.md "Constraints"): the values it
 * allows are those meeting every operator present. `eq` takes any scalar; `gte` and `lte`
 * take numbers and only ever allow numbers.
 */
export type ScalarValue = number | string | boolean | null;

export interface ParamConstraint {
  readonly eq?: ScalarValue;
  readonly gte?: number;
  readonly lte?: number;
}

export const CONSTRAINT_OPERATORS = ['eq', 'gte', 'lte'] as const;
export type ConstraintOperator = (typeof CONSTRAINT_OPERATORS)[number];

/** A decimal the way ids travel in paths and query strings: "42", "-3", "0.5", "042". */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A request value (or an operand) as constraints compare it: a number, or a string that
 * is a plain decimal, is that number (so the path's "42" equals the body's 42); other
 * strings, booleans and null are themselves. Arrays and objects are no scalar: no
 * constraint ever allows them (undefined).
 */
export function canonicalValue(value: unknown): ScalarValue | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? value : undefined;
    case 'string':
      return DECIMAL.test(value) && Number.isFinite(Number(value)) ? Number(value) : value;
    case 'boolean':
      return value;
    default:
      return value === null ? null : undefined;
  }
}

/** True when `value` meets every operator of `constraint`. */
export function satisfiesConstraint(constraint: ParamConstraint, value: unknown): boolean {
  const actual = canonicalValue(value);
  if (actual === undefined) return false;
  if (constraint.eq !== undefined && canonicalValue(constraint.eq) !== actual) return false;
  if (constraint.gte !== undefined && !(typeof actual === 'number' && actual >= constraint.gte))
    return false;
  if (constraint.lte !== undefined && !(typeof actual === 'number' && actual <= constraint.lte))
    return false;
  return true;
}

/** True when no value at all meets the constraint (`eq 5` with `gte 6`, `gte 3` with `lte 2`). */
export function allowsNothing(constraint: ParamConstraint): boolean {
  if (constraint.eq !== undefined) return !satisfiesConstraint(constraint, constraint.eq);
  return (
    constraint.gte !== undefined && constraint.lte !== undefined && constraint.gte > constraint.lte
  );
}

/**
 * True when every value `child` allows, `parent` allows too. An absent child constraint
 * allows any value (and the parameter's absence), so it is within no constraint.
 */
export function constraintWithin(
  child: ParamConstraint | undefined,
  parent: ParamConstraint,
): boolean {
  if (child === undefined) return false;
  if (allowsNothing(child)) return true;
  // A child with eq allows that one value (it met the child's own bounds: not empty).
  if (child.eq !== undefined) return satisfiesConstraint(parent, child.eq);
  // Otherwise the child allows the numbers of an interval, bounded on at least one side.
  if (parent.eq !== undefined) {
    return (
      child.gte !== undefined && child.gte === child.lte && satisfiesConstraint(parent, child.gte)
    );
  }
  const lowOk = parent.gte === undefined || (child.gte !== undefined && child.gte >= parent.gte);
  const highOk = parent.lte === undefined || (child.lte !== undefined && child.lte <= parent.lte);
  return lowOk && highOk;
}

/** The values both allow, or null when they share none. */
export function intersectConstraints(
  a: ParamConstraint,
  b: ParamConstraint,
): ParamConstraint | null {
  let eq: ScalarValue | undefined;
  if (a.eq !== undefined && b.eq !== undefined) {
    if (canonicalValue(a.eq) !== canonicalValue(b.eq)) return null;
    eq = a.eq;
  } else {
    eq = a.eq !== undefined ? a.eq : b.eq;
  }
  const gte = a.gte === undefined ? b.gte : b.gte === undefined ? a.gte : Math.max(a.gte, b.gte);
  const lte = a.lte === undefined ? b.lte : b.lte === undefined ? a.lte : Math.min(a.lte, b.lte);
  const merged: ParamConstraint = {
    ...(eq !== undefined ? { eq } : {}),
    ...(gte !== undefined ? { gte } : {}),
    ...(lte !== undefined ? { lte } : {}),
  };
  return allowsNothing(merged) ? null : merged;
}

/** How a constraint reads in messages: `eq 42`, `gte 1 and lte 9`. */
export function describeConstraint(constraint: ParamConstraint): string {
  return CONSTRAINT_OPERATORS.filter((operator) => constraint[operator] !== undefined)
    .map((operator) => `${operator} ${JSON.stringify(constraint[operator])}`)
    .join(' and ');
}
