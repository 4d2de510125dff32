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

  /** `msg` of the envelope, `detail` of a rate-limit answer, else the raw text. */
  get text(): string {
    const msg = this.field('msg') ?? this.field('detail');
    if (typeof msg === 'string') return msg;
    if (msg !== undefined && msg !== null) return JSON.stringify(msg);
    return this.rawBody.trim() || '(no message)';
  }

  field(name: string): unknown {
    const body = this.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      return (body as Record<string, unknown>)[name];
    }
    return undefined;
  }
}
