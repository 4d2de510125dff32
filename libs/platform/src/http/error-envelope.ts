import type { Response } from 'express';

export interface ErrorEnvelope {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The failure body of every route: success false, error (where present), msg, extra fields. */
export function errorBody(
  msg: string,
  error?: string | null,
  details: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return { success: false, ...(error ? { error } : {}), msg, ...details };
}

export function sendEnvelope(response: Response, envelope: ErrorEnvelope): void {
  if (response.headersSent) return;
  for (const [name, value] of Object.entries(envelope.headers ?? {}))
    response.setHeader(name, value);
  response.status(envelope.status).json(envelope.body);
}
