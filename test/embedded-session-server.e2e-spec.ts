import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { DIST, ROOT } from '@test/support/api';
import { CONDITION_TIMEOUT_MS, waitFor } from '@test/support/wait';

/**
 * A process that serves a PGlite database through the built PgliteSessionServer (PGlite
 * loads its WebAssembly with a dynamic import, which jest's module sandbox does not run).
 * A statement containing `pglite_fails_here` makes PGlite fail inside, as a bug would.
 * Prints "ready" once listening; "idle <bool>" after each "status" line on stdin.
 */
const HOST_SCRIPT = `
const { PgliteSessionServer } = require(process.env.SERVER_MODULE);
(async () => {
  const { PGlite } = await import('@electric-sql/pglite');
  // On disk, as in the embedded mode: PGlite's writes then yield to the event loop.
  const db = await PGlite.create(process.env.DATA_DIR);
  await db.exec('CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)');
  const session = {
    execProtocolRawStream: (message, options) =>
      Buffer.from(message).includes('pglite_fails_here')
        ? Promise.reject(new Error('PGlite failed inside'))
        : db.execProtocolRawStream(message, options),
    isInTransaction: () => db.isInTransaction(),
    runExclusive: (fn) => db.runExclusive(fn),
  };
  const server = new PgliteSessionServer(session, {
    path: process.env.SOCKET_PATH,
    maxConnections: Number(process.env.MAX_CONNECTIONS),
  });
  await server.start();
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (text) => {
    if (text.includes('status'))
      process.stdout.write('open ' + server.openConnections + ' transaction ' + db.isInTransaction() + '\\n');
  });
  process.stdin.on('end', async () => { await server.stop(); await db.close(); process.exit(0); });
  process.stdout.write('ready\\n');
})();
`;

interface Host {
  socketDir: string;
  status(): Promise<string>;
  stop(): Promise<void>;
}

async function startHost(maxConnections: number): Promise<Host> {
  const socketDir = mkdtempSync(join(tmpdir(), 'pglite-session-'));
  const child: ChildProcess = spawn(process.execPath, ['-e', HOST_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      SERVER_MODULE:
        process.env.XSERVER ??
        join(DIST, 'libs/platform/src/infrastructure/embedded/pglite-session-server.js'),
      SOCKET_PATH: join(socketDir, '.s.PGSQL.5432'),
      DATA_DIR: join(socketDir, 'pgdata'),
      MAX_CONNECTIONS: String(maxConnections),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`host exited ${code}`)));
      lines.once('line', resolve);
    });
  const timer = setTimeout(() => child.kill('SIGKILL'), CONDITION_TIMEOUT_MS);
  expect(await next()).toBe('ready');
  clearTimeout(timer);
  return {
    socketDir,
    status: () => {
      const line = next();
      child.stdin!.write('status\n');
      return line;
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** A protocol-level client, to send a connection's messages one at a time. */
class RawConnection {
  private received = Buffer.alloc(0);
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiters.splice(0).forEach((wake) => wake());
    });
  }

  static async open(socketDir: string): Promise<RawConnection> {
    const socket = createConnection(join(socketDir, '.s.PGSQL.5432'));
    await new Promise((resolve) => socket.once('connect', resolve));
    const connection = new RawConnection(socket);
    const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
    const startup = Buffer.alloc(8 + params.length);
    startup.writeInt32BE(8 + params.length, 0);
    startup.writeInt32BE(196608, 4);
    params.copy(startup, 8);
    socket.write(startup);
    await connection.until('Z');
    return connection;
  }

  send(type: string, ...fields: Buffer[]): void {
    const body = Buffer.concat(fields);
    const header = Buffer.alloc(5);
    header.write(type);
    header.writeInt32BE(4 + body.length, 1);
    this.socket.write(Buffer.concat([header, body]));
  }

  parse(sql: string): void {
    this.send('P', Buffer.from(`\0${sql}\0`), Buffer.from([0, 0]));
  }

  /** Bind of the unnamed statement to the unnamed portal, text parameters, then Execute. */
  bindAndExecute(values: string[]): void {
    const parameters = values.flatMap((value) => {
      const length = Buffer.alloc(4);
      length.writeInt32BE(Buffer.byteLength(value));
      return [length, Buffer.from(value)];
    });
    const count = Buffer.alloc(2);
    count.writeInt16BE(values.length);
    this.send('B', Buffer.from([0, 0, 0, 0]), count, ...parameters, Buffer.from([0, 0]));
    this.send('E', Buffer.from([0, 0, 0, 0, 0]));
    this.send('S');
  }

  /** The messages received until one of type `type` (included); they are consumed. */
  async until(type: string): Promise<Array<{ type: string; body: Buffer }>> {
    for (;;) {
      const messages: Array<{ type: string; body: Buffer }> = [];
      let offset = 0;
      while (offset + 5 <= this.received.length) {
        const length = this.received.readInt32BE(offset + 1);
        if (offset + 1 + length > this.received.length) break;
        const message = {
          type: String.fromCharCode(this.received[offset]),
          body: this.received.subarray(offset + 5, offset + 1 + length),
        };
        messages.push(message);
        offset += 1 + length;
        if (message.type === type) {
          this.received = this.received.subarray(offset);
          return messages;
        }
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The text of each DataRow's first column, and of each ErrorResponse's message. */
function outcome(messages: Array<{ type: string; body: Buffer }>): string[] {
  return messages.flatMap(({ type, body }) => {
    if (type === 'D') return [body.subarray(6, 6 + body.readInt32BE(2)).toString()];
    if (type === 'E') {
      const fields = body.toString().split('\0');
      return [`error: ${fields.find((field) => field.startsWith('M'))!.slice(1)}`];
    }
    return [];
  });
}

/** The host's connection limit: more than any test below needs, except the last one. */
const MAX_CONNECTIONS = 8;

/**
 * The embedded database's socket server against a real PGlite, through the `pg` driver
 * the api uses: several connections share its one session and never see each other's
 * half-done work (the unnamed statement between Parse and Sync, an open transaction).
 */
describe('PgliteSessionServer: one PGlite session, many connections', () => {
  let host: Host;
  const clients: Client[] = [];

  async function connect(on: Host = host): Promise<Client> {
    const client = new Client({ host: on.socketDir, user: 'postgres', database: 'postgres' });
    client.on('error', () => undefined);
    clients.push(client);
    await client.connect();
    return client;
  }

  beforeAll(async () => {
    host = await startHost(MAX_CONNECTIONS);
  }, 120_000);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
    const cleared = await connect();
    await cleared.query('TRUNCATE items');
    await cleared.end();
    clients.splice(0);
  });

  afterAll(() => host?.stop());

  it('keeps each connection’s extended-protocol statements whole when many run at once', async () => {
    const pool = await Promise.all(Array.from({ length: 6 }, () => connect()));
    // Statements of different shapes (1 to 11 parameters) race on every connection.
    const runs = pool.flatMap((client, c) =>
      Array.from({ length: 40 }, async (_, i) => {
        const width = 1 + ((c + i) % 11);
        const values = Array.from({ length: width }, (_, k) => c * 1000 + i * 20 + k);
        const sql = `SELECT ${values.map((_, k) => `$${k + 1}::int`).join(' + ')} AS sum`;
        const { rows } = await client.query<{ sum: number }>(sql, values);
        return rows[0].sum === values.reduce((a, b) => a + b, 0);
      }),
    );
    expect(new Set(await Promise.all(runs))).toEqual(new Set([true]));
  });

  it('keeps another connection out between one connection’s Parse and its Bind', async () => {
    const [first, second] = [
      await RawConnection.open(host.socketDir),
      await RawConnection.open(host.socketDir),
    ];
    try {
      first.parse('SELECT $1::int * 10');
      await first.until('1');
      // The second connection's whole exchange arrives between the first's Parse and Bind:
      // it must not replace the first's unnamed statement.
      second.parse('SELECT $1::text || $2::text');
      second.bindAndExecute(['a', 'b']);
      const secondDone = second.until('Z');
      first.bindAndExecute(['4']);
      expect(outcome(await first.until('Z'))).toEqual(['40']);
      expect(outcome(await secondDone)).toEqual(['ab']);
    } finally {
      first.close();
      second.close();
    }
  });

  it('keeps a transaction whole: another connection waits for its end, then sees its result', async () => {
    const [writer, reader] = [await connect(), await connect()];
    await writer.query('BEGIN');
    await writer.query('INSERT INTO items VALUES ($1, $2)', [1, 'first']);
    let readerDone = false;
    const read = reader.query('SELECT count(*)::int AS n FROM items').then((result) => {
      readerDone = true;
      return result.rows[0].n as number;
    });
    await writer.query('INSERT INTO items VALUES ($1, $2)', [2, 'second']);
    expect(readerDone).toBe(false);
    await writer.query('COMMIT');
    expect(await read).toBe(2);
  });

  it('lets a new connection start up at once while another is inside a transaction', async () => {
    const holder = await connect();
    await holder.query('BEGIN');
    const late = await connect();
    // Its start-up answered "idle": it is not inside the other connection's transaction.
    const query = late.query('SELECT 1 AS one');
    await holder.query('ROLLBACK');
    expect((await query).rows).toEqual([{ one: 1 }]);
  });

  it('rolls back the transaction of a connection that goes away, and serves the next', async () => {
    const leaver = await connect();
    await leaver.query('BEGIN');
    await leaver.query('INSERT INTO items VALUES ($1, $2)', [7, 'abandoned']);
    const waiter = await connect();
    const counted = waiter.query('SELECT count(*)::int AS n FROM items');
    (
      leaver as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
    expect((await counted).rows[0].n).toBe(0);
    expect(await host.status()).toMatch(/transaction false$/);
  });

  it('ends the exchange of a connection that leaves between its Parse and its Sync', async () => {
    const leaver = await RawConnection.open(host.socketDir);
    // Parse of the unnamed statement, then nothing: the session is this connection's.
    leaver.parse('SELECT $1::int AS half_done');
    await leaver.until('1');
    const other = await connect();
    const query = other.query('SELECT $1::text AS mine', ['whole']);
    leaver.close();
    expect((await query).rows).toEqual([{ mine: 'whole' }]);
  });

  it('closes only the connection PGlite failed on, and serves the others', async () => {
    const [victim, bystander] = [await connect(), await connect()];
    await expect(victim.query(`SELECT 'pglite_fails_here'`)).rejects.toThrow();
    expect((await bystander.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it('answers a Terminate inside a transaction by rolling it back', async () => {
    const client = await connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO items VALUES ($1, $2)', [9, 'never']);
    await client.end();
    const next = await connect();
    expect((await next.query('SELECT count(*)::int AS n FROM items')).rows).toEqual([{ n: 0 }]);
  });

  it('refuses a connection beyond its limit as PostgreSQL does', async () => {
    // The earlier tests' connections are ended, but the server counts one out only when its
    // socket closes: wait for that, or the limit is reached before this test's last one.
    await waitFor(
      () => host.status(),
      (status) => status.startsWith('open 0 '),
      { what: 'the earlier connections to close', intervalMs: 100 },
    );
    await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => connect()));
    await expect(connect()).rejects.toThrow('sorry, too many clients already');
    await Promise.all(clients.splice(0).map((client) => client.end().catch(() => undefined)));
  });
});
