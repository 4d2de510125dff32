import { Command } from 'commander';
import { DEFAULT_URL, URL_ENV } from './config/api-url';
import { ConfigStore, configDirectory } from './config/config-store';
import { resolveApiKey } from './config/key-resolution';
import { UsageError } from './errors';
import { ApiClient } from './http/api-client';
import { DEFAULT_RETRY_POLICY } from './http/retry-policy';
import { Io } from './io';

const REQUEST_TIMEOUT_MS = 120_000;

export interface GlobalOptions {
  url: string;
  retry: number;
  raw: boolean;
  explain: boolean;
  apiKey?: string;
}

export function readGlobalOptions(command: Command, env: NodeJS.ProcessEnv): GlobalOptions {
  const opts = command.optsWithGlobals<{
    url?: string;
    retry?: number;
    raw?: boolean;
    explain?: boolean;
    apiKey?: string;
  }>();
  const url = opts.url ?? (env[URL_ENV] || DEFAULT_URL);
  if (!/^https?:\/\/[^/]/i.test(url)) {
    throw new UsageError(`--url '${url}' must start with http:// or https://`);
  }
  return {
    url,
    retry: opts.retry ?? DEFAULT_RETRY_POLICY.retries,
    raw: Boolean(opts.raw),
    explain: Boolean(opts.explain),
    apiKey: opts.apiKey,
  };
}

/** What a command handler gets: its global options, the config store, output and the api. */
export class CommandContext {
  private client?: ApiClient;
  readonly store: ConfigStore;

  constructor(
    readonly io: Io,
    readonly globals: GlobalOptions,
    store?: ConfigStore,
  ) {
    this.store = store ?? new ConfigStore(configDirectory(io.env));
  }

  get raw(): boolean {
    return this.globals.raw;
  }

  api(): ApiClient {
    this.client ??= new ApiClient({
      baseUrl: this.globals.url,
      policy: { ...DEFAULT_RETRY_POLICY, retries: this.globals.retry },
      explain: this.globals.explain,
      timeoutMs: REQUEST_TIMEOUT_MS,
      io: this.io,
      store: this.store,
      resolveKey: () => resolveApiKey(this.globals.apiKey, this.io.env, this.store),
    });
    return this.client;
  }

  /** The single JSON document of --raw. */
  printJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Human output on stdout. */
  print(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Notices and hints: stderr, so stdout stays clean for pipes. */
  note(text: string): void {
    this.io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Either the raw document or the human rendering, never both. */
  output(value: unknown, human: () => string): void {
    if (this.raw) this.printJson(value);
    else this.print(human());
  }
}
