import { createServer, Server, Socket } from 'node:net';
import {
  CANCEL_REQUEST,
  fatalError,
  FrontendFramer,
  GSSENC_REQUEST,
  PROTOCOL_V3,
  queryMessage,
  ReadyForQueryTracker,
  SSL_REQUEST,
  startupCode,
  startupMessage,
  SYNC_MESSAGE,
  TERMINATE,
} from './pg-wire';

/** What the server needs of a PGlite database (the class itself, or a stand-in in tests). */
export interface PgliteSession {
  execProtocolRawStream(
    message: Uint8Array,
    options: { onRawData: (data: Uint8Array) => void },
  ): Promise<void>;
  isInTransaction(): boolean;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
}

export interface PgliteSessionServerOptions {
  /** Path of the unix socket, e.g. `<dir>/.s.PGSQL.5432`. */
  path: string;
  /** Connections open at once; more are refused as PostgreSQL does (53300). */
  maxConnections: number;
}

/**
 * Turns at the one session, first come first served: a connection waits here until every
 * connection ahead of it has finished what it was doing.
 */
class SessionTurns {
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}

/**
 * Serves one PGlite database to many PostgreSQL clients (the api's pool, `manage`
 * commands) on a unix socket.
 *
 * PGlite is a single backend session, where PostgreSQL gives every connection its own.
 * What a session holds between two messages of one client (the unnamed statement and
 * portal of an extended-protocol exchange from Parse to Sync, a suspended portal of a
 * cursor, an open transaction block) must not be touched by another client meanwhile. So
 * the session is lent to one connection at a time, for a whole unit of work: from the
 * first message it sends until the session reports ReadyForQuery outside a transaction
 * block; only then may the next connection in line use it. (Interleaving single messages
 * across connections, as @electric-sql/pglite-socket does, lets one client's Parse
 * replace another's unnamed statement between its Parse and its Bind.)
 *
 * The start-up exchange never touches the session: PGlite would answer a second start-up
 * with the current transaction status of whoever is inside, so every client gets the
 * answer of the server's own start-up, made once while the session was idle. A client
 * that goes away in the middle of its turn has its unit ended for it (Sync, then ROLLBACK
 * of an open transaction block) before the next one gets the session; an error inside
 * PGlite closes that client's connection and never stalls the others.
 */
export class PgliteSessionServer {
  private server?: Server;
  private startupReply?: Buffer;
  private readonly turns = new SessionTurns();
  private readonly connections = new Set<ClientConnection>();

  constructor(
    private readonly session: PgliteSession,
    private readonly options: PgliteSessionServerOptions,
  ) {}

  async start(): Promise<void> {
    this.startupReply = await this.serverStartup();
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  /** Closes every connection (each one's unit is ended first) and stops listening. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closing = server
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : Promise.resolve();
    await Promise.all([...this.connections].map((connection) => connection.close()));
    await closing;
  }

  /** Connections open now (for tests and diagnostics). */
  get openConnections(): number {
    return this.connections.size;
  }

  private accept(socket: Socket): void {
    if (this.connections.size >= this.options.maxConnections) {
      socket.end(fatalError('53300', 'sorry, too many clients already'));
      return;
    }
    const connection = new ClientConnection(
      socket,
      this.session,
      this.turns,
      this.startupReply!,
      () => this.connections.delete(connection),
    );
    this.connections.add(connection);
  }

  /** The session's answer to a start-up, taken while nothing else uses it. */
  private async serverStartup(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const tracker = new ReadyForQueryTracker();
    await this.turns.acquire();
    try {
      await this.session.runExclusive(() =>
        this.session.execProtocolRawStream(
          startupMessage({ user: 'postgres', database: 'postgres' }),
          {
            onRawData: (data) => {
              tracker.feed(data);
              chunks.push(Buffer.from(data));
            },
          },
        ),
      );
    } finally {
      this.turns.release();
    }
    if (!tracker.idle) throw new Error('the embedded database did not start up idle');
    return Buffer.concat(chunks);
  }
}

/** One client's connection: its messages, and its turns at the session. */
class ClientConnection {
  private readonly framer = new FrontendFramer();
  private readonly tracker = new ReadyForQueryTracker();
  private readonly inbox: Buffer[] = [];
  private startedUp = false;
  /** Whether this connection has the session (between its first message and idle). */
  private holding = false;
  private pumping?: Promise<void>;
  private closed = false;
  private readonly finished: Promise<void>;
  private finish!: () => void;

  constructor(
    private readonly socket: Socket,
    private readonly session: PgliteSession,
    private readonly turns: SessionTurns,
    private readonly startupReply: Buffer,
    onFinished: () => void,
  ) {
    this.finished = new Promise<void>((resolve) => (this.finish = resolve)).then(onFinished);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void this.onClosed());
  }

  /** Ends the connection (its unit is ended first, if it was inside one). */
  close(): Promise<void> {
    this.socket.destroy();
    return this.finished;
  }

  private receive(chunk: Buffer): void {
    let messages: Buffer[];
    try {
      messages = this.framer.push(chunk, () => this.startedUp);
    } catch {
      this.socket.destroy();
      return;
    }
    for (const message of messages) {
      if (this.startedUp) this.inbox.push(message);
      else this.startUp(message);
    }
    if (this.inbox.length > 0 && !this.pumping) {
      this.pumping = this.pump().finally(() => (this.pumping = undefined));
    }
  }

  private startUp(message: Buffer): void {
    const code = startupCode(message);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      // No encryption on a private unix socket: the client goes on in plain text.
      this.socket.write('N');
    } else if (code === PROTOCOL_V3) {
      this.startedUp = true;
      this.socket.write(this.startupReply);
    } else if (code === CANCEL_REQUEST) {
      // Cancelling a running statement is not supported by PGlite: the request is dropped.
      this.socket.destroy();
    } else {
      this.socket.end(fatalError('08P01', 'unsupported frontend protocol'));
    }
  }

  /** Runs the waiting messages in order, taking a turn at the session when needed. */
  private async pump(): Promise<void> {
    while (!this.closed && this.inbox.length > 0) {
      const message = this.inbox.shift()!;
      if (message[0] === TERMINATE) {
        this.socket.end();
        return;
      }
      if (!this.holding) {
        await this.turns.acquire();
        this.holding = true;
        if (this.closed) return;
      }
      try {
        await this.run(message, (data) => {
          if (!this.closed) this.socket.write(Buffer.from(data));
        });
      } catch {
        // PGlite failed inside; this client's state is unknown: its connection ends.
        this.socket.destroy();
        return;
      }
      if (this.tracker.idle) this.giveBackTurn();
    }
  }

  private run(message: Uint8Array, onData: (data: Uint8Array) => void): Promise<void> {
    return this.session.runExclusive(() =>
      this.session.execProtocolRawStream(message, {
        onRawData: (data) => {
          this.tracker.feed(data);
          onData(data);
        },
      }),
    );
  }

  private giveBackTurn(): void {
    this.holding = false;
    this.turns.release();
  }

  private async onClosed(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.inbox.length = 0;
    await this.pumping;
    try {
      if (this.holding) await this.endUnit();
    } finally {
      if (this.holding) this.giveBackTurn();
      this.finish();
    }
  }

  /**
   * The client left in the middle of its turn: Sync ends an extended-protocol exchange
   * (and its implicit transaction, and any portal), ROLLBACK an open transaction block,
   * so the next client finds the session as a new connection would.
   */
  private async endUnit(): Promise<void> {
    const ignore = (): void => undefined;
    await this.run(SYNC_MESSAGE, ignore).catch(ignore);
    if (this.session.isInTransaction()) {
      await this.run(queryMessage('ROLLBACK'), ignore).catch(ignore);
    }
  }
}
