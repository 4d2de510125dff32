/**
 * The few pieces of the PostgreSQL wire protocol (v3) the embedded session server needs:
 * framing the messages a client sends, noticing when the backend is idle again, and the
 * messages the server writes itself. https://www.postgresql.org/docs/current/protocol.html
 */

/** The first message of a connection carries no type byte; its code says what it is. */
export const PROTOCOL_V3 = 196_608;
export const SSL_REQUEST = 80_877_103;
export const GSSENC_REQUEST = 80_877_104;
export const CANCEL_REQUEST = 80_877_102;

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': not in a transaction block

/** Frontend message type bytes the server acts on itself. */
export const TERMINATE = 0x58; // 'X'

/**
 * Splits a client's byte stream into whole messages: the untyped start-up messages
 * (length, code, body) until the start-up is done, then typed ones (type, length, body).
 */
export class FrontendFramer {
  private buffered: Buffer = Buffer.alloc(0);

  /** Whole messages made complete by `chunk`, in order. */
  push(chunk: Buffer, startedUp: () => boolean): Buffer[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const messages: Buffer[] = [];
    for (;;) {
      const typed = startedUp();
      const header = typed ? 5 : 4;
      if (this.buffered.length < header) break;
      const length = typed ? 1 + this.buffered.readInt32BE(1) : this.buffered.readInt32BE(0);
      if (length < header) throw new Error(`malformed message (length ${length})`);
      if (this.buffered.length < length) break;
      messages.push(this.buffered.subarray(0, length));
      this.buffered = this.buffered.subarray(length);
      // A start-up message changes how the next one is framed: let the caller see it first.
      if (!typed) break;
    }
    return messages;
  }
}

/** The code of an untyped start-up message (protocol version, or a special request). */
export function startupCode(message: Buffer): number {
  return message.length >= 8 ? message.readInt32BE(4) : -1;
}

/**
 * Follows the backend's output message by message (output arrives in chunks that need
 * not end on a message boundary) to tell whether the last whole message was
 * ReadyForQuery with status idle: the session then holds nothing of one client's.
 */
export class ReadyForQueryTracker {
  private header = Buffer.alloc(5);
  private headerFill = 0;
  private remaining = 0;
  private type = 0;
  private status = 0;
  /** True when the last whole message was ReadyForQuery 'I'. */
  idle = false;

  feed(data: Uint8Array): void {
    let offset = 0;
    while (offset < data.length) {
      if (this.remaining === 0) {
        const take = Math.min(5 - this.headerFill, data.length - offset);
        this.header.set(data.subarray(offset, offset + take), this.headerFill);
        this.headerFill += take;
        offset += take;
        if (this.headerFill < 5) return;
        this.headerFill = 0;
        this.type = this.header[0];
        this.remaining = this.header.readInt32BE(1) - 4;
        this.status = 0;
        this.idle = false;
        if (this.remaining === 0) this.finishMessage();
        continue;
      }
      const take = Math.min(this.remaining, data.length - offset);
      if (this.type === READY_FOR_QUERY && this.status === 0) this.status = data[offset];
      this.remaining -= take;
      offset += take;
      if (this.remaining === 0) this.finishMessage();
    }
  }

  private finishMessage(): void {
    this.idle = this.type === READY_FOR_QUERY && this.status === IDLE;
  }
}

/** A simple-protocol Query message. */
export function queryMessage(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0, 'latin1');
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

export const SYNC_MESSAGE = Buffer.from([0x53, 0, 0, 0, 4]);

/** A start-up message of protocol 3.0 with these parameters. */
export function startupMessage(parameters: Record<string, string>): Buffer {
  const pairs = Object.entries(parameters).flatMap(([name, value]) => [name, value]);
  const body = Buffer.from(`${pairs.map((part) => `${part}\0`).join('')}\0`, 'utf8');
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(8 + body.length, 0);
  message.writeInt32BE(PROTOCOL_V3, 4);
  body.copy(message, 8);
  return message;
}

/** A FATAL ErrorResponse, as a server sends before it closes a connection it refuses. */
export function fatalError(sqlState: string, text: string): Buffer {
  const fields = Buffer.from(
    `SFATAL\0VFATAL\0C${sqlState}\0M${text.replace(/\0/g, '')}\0\0`,
    'utf8',
  );
  const message = Buffer.alloc(5 + fields.length);
  message.write('E', 0, 'latin1');
  message.writeInt32BE(4 + fields.length, 1);
  fields.copy(message, 5);
  return message;
}
