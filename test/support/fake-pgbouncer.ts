import { connect, createServer, Server, Socket } from 'node:net';

/**
 * PgBouncer's handling of the startup packet, on loopback, in front of a real PostgreSQL:
 * it accepts only the parameters PgBouncer 1.18 tracks (plus those listed as ignored,
 * which it drops), and refuses any other exactly as PgBouncer does, with a FATAL
 * ErrorResponse (SQLSTATE 08P01, "unsupported startup parameter: <name>") and a closed
 * connection. An accepted connection is passed through to the server unchanged otherwise.
 * Nothing else of PgBouncer (pooling) is imitated: the suite needs no pgbouncer binary;
 * `npm run bench:pgbouncer` runs the real one.
 */
const TRACKED = new Set([
  'user',
  'database',
  'application_name',
  'client_encoding',
  'datestyle',
  'timezone',
  'standard_conforming_strings',
]);
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

export class FakePgBouncer {
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /**
   * `ignored`: PgBouncer's ignore_startup_parameters (its default is extra_float_digits).
   */
  static async start(
    target: { host: string; port: number },
    ignored: readonly string[] = ['extra_float_digits'],
  ): Promise<FakePgBouncer> {
    const server = createServer((client) => handle(client, target, new Set(ignored)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return new FakePgBouncer(server, typeof address === 'object' && address ? address.port : 0);
  }

  /** DATABASE_URL through this pooler for a URL of the server behind it. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      (this.server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  }
}

function handle(
  client: Socket,
  target: { host: string; port: number },
  ignored: Set<string>,
): void {
  let buffered = Buffer.alloc(0);
  client.on('error', () => undefined);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (buffered.length < 8) return;
    const length = buffered.readInt32BE(0);
    if (buffered.length < length) return;
    const code = buffered.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSS_REQUEST) {
      buffered = buffered.subarray(length);
      client.write('N');
      return;
    }
    client.off('data', onData);
    const rest = buffered.subarray(length);
    const parameters = parseParameters(buffered.subarray(8, length));
    const unsupported = parameters.find(([name]) => !TRACKED.has(name) && !ignored.has(name));
    if (unsupported) {
      client.end(errorResponse(`unsupported startup parameter: ${unsupported[0]}`));
      return;
    }
    const server = connect(target.port, target.host);
    server.on('error', () => client.destroy());
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    server.write(
      startupMessage(
        code,
        parameters.filter(([name]) => !ignored.has(name)),
      ),
    );
    if (rest.length > 0) server.write(rest);
    client.pipe(server);
    server.pipe(client);
  };
  client.on('data', onData);
}

function parseParameters(body: Buffer): Array<[string, string]> {
  const words = body.toString('utf8').split('\0');
  const parameters: Array<[string, string]> = [];
  for (let i = 0; i + 1 < words.length && words[i] !== ''; i += 2)
    parameters.push([words[i], words[i + 1]]);
  return parameters;
}

function startupMessage(code: number, parameters: Array<[string, string]>): Buffer {
  const body = Buffer.from(
    `${parameters.map(([name, value]) => `${name}\0${value}\0`).join('')}\0`,
    'utf8',
  );
  const header = Buffer.alloc(8);
  header.writeInt32BE(body.length + 8, 0);
  header.writeInt32BE(code, 4);
  return Buffer.concat([header, body]);
}

/** PgBouncer's refusal, byte for byte: severity, SQLSTATE 08P01, message; no V field. */
function errorResponse(message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C08P01\0M${message}\0\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}
