/** Every spelling of a new context's names that its files use. */
export interface Spellings {
  /** `gpu-reservation` */
  kebab: string;
  /** `GpuReservation` */
  pascal: string;
  /** `gpuReservation` */
  camel: string;
  /** `gpu_reservation` */
  snake: string;
  /** `GPU_RESERVATION` */
  upper: string;
  /** `gpu reservation`, for prose */
  words: string;
}

export interface ContextNames {
  /** The context: library folder, path alias, route and module. */
  context: Spellings;
  /** Its one entity, by default the context's name without a plural s. */
  entity: Spellings;
  /** The table its migration creates (the context's name). */
  table: string;
}

const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** PostgreSQL identifiers are at most 63 bytes; the index name adds a suffix. */
const MAX_LENGTH = 40;

/** Words a generated file cannot use as a variable name. */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export ' +
    'extends false finally for function if import in instanceof new null return super ' +
    'switch this throw true try typeof var void while with yield let static implements ' +
    'interface package private protected public await'
  ).split(' '),
);

export function spell(kebab: string): Spellings {
  const words = kebab.split('-');
  const capitalised = words.map((word) => word[0].toUpperCase() + word.slice(1));
  return {
    kebab,
    pascal: capitalised.join(''),
    camel: words[0] + capitalised.slice(1).join(''),
    snake: words.join('_'),
    upper: words.join('_').toUpperCase(),
    words: words.join(' '),
  };
}

/** Why `name` cannot name a context (as a word, before looking at the tree), or null. */
export function nameProblem(name: string): string | null {
  if (!KEBAB_CASE.test(name))
    return `'${name}' is not kebab-case (lower-case words of letters and digits joined by -, e.g. gpu-reservations)`;
  if (name.length > MAX_LENGTH) return `'${name}' is longer than ${MAX_LENGTH} characters`;
  return null;
}

/** `reservations` -> `reservation`; a name without a plural s gets `-record`. */
export function defaultEntity(context: string): string {
  return /[^s]s$/.test(context) && context.length > 3 ? context.slice(0, -1) : `${context}-record`;
}

export function contextNames(context: string, entity = defaultEntity(context)): ContextNames {
  return { context: spell(context), entity: spell(entity), table: spell(context).snake };
}

/** Why these names cannot be written (a reserved word as a variable), or null. */
export function spellingProblem(names: ContextNames): string | null {
  for (const spelling of [names.context, names.entity]) {
    if (RESERVED.has(spelling.camel))
      return `'${spelling.kebab}' would name a variable '${spelling.camel}', a reserved word`;
  }
  return null;
}
