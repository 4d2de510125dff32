/** A mistake in how the command was typed: exit code 2, no request sent. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** The command could not do its job for a reason that is not an HTTP error: exit code 1. */
export class CliFailure extends Error {
  readonly exitCode = 1;
}

/** A non-2xx answer from the api, after retries: exit code 1. */
export class ApiError extends Error {
  readonly exitCode = 1;
  /** What the command knows the user can do about it; replaces the hint by error code. */
  hint?: string;

  constructor(
    readonly status: number,
    /** The parsed JSON body, or null when the body was not JSON. */
    readonly body: unknown,
    readonly rawBody: string,
  ) {
    super(`HTTP ${status}`);
  }

  /** The `error` code of the envelope, when there is one. */
  get code(): string | undefined {
    const value = this.field('error');
    return typeof value === 'string' ? value : undefined;
  }

  /** `msg` of the envelope, `detail` of a rate-limit answer, else a summary of the body. */
  get text(): string {
    const msg = this.field('msg') ?? this.field('detail');
    if (typeof msg === 'string') return msg;
    if (msg !== undefined && msg !== null) return JSON.stringify(msg);
    return summarizeBody(this.rawBody);
  }

  field(name: string): unknown {
    const body = this.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      return (body as Record<string, unknown>)[name];
    }
    return undefined;
  }
}

const SUMMARY_LENGTH = 200;

/**
 * One line from a body that is not the api's JSON (a proxy's HTML error page, a web
 * server at the wrong URL): the page title if any, else the text without tags, shortened.
 */
export function summarizeBody(raw: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(raw)?.[1];
  const text = (title ?? raw.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  if (text === '') return '(empty body)';
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 3)}...` : text;
}
