import Redis, { RedisOptions, SentinelConnector } from 'ioredis';

/** host:port of a Sentinel. */
export interface SentinelNode {
  host: string;
  port: number;
}

/** The longest a failover holds connections back; past it they connect as Sentinel says. */
const HOLD_LIMIT_MS = 30_000;
/** How often the Sentinels are asked, during a failover, whether they all name the new master. */
const POLL_MS = 100;

type ConnectArguments = Parameters<SentinelConnector['connect']>;

/** What the watch reaches of a connector: the connection it made last (ioredis keeps it). */
interface HeldConnector {
  stream?: { destroyed: boolean; destroy(): void };
}

/**
 * Follows a Sentinel failover of one master for every connection of a process, so that
 * no write lands on the old master after a replica was promoted (Redis replicates
 * asynchronously, and the old master stays a master, taking writes, until the Sentinels
 * demote it some seconds later: those writes vanish with the demotion).
 *
 * It subscribes on every Sentinel to the failover's events. From `+selected-slave` (the
 * leader chose the replica it is about to promote) or `+switch-master` (a Sentinel names
 * the new master), every connection of this master is dropped, and each reconnection waits
 * until every Sentinel that answers names the same master, other than the old one (a
 * Sentinel that has not yet heard of the switch would send it back to the old master). A
 * failover that is aborted, or lasts more than HOLD_LIMIT_MS, releases them. Meanwhile
 * commands fail at once (503) or, on BullMQ's connections, wait.
 *
 * ioredis' own `failoverDetector` acts only on `+switch-master`, a second after the
 * promotion on a real Sentinel (writes in between are lost), reconnects through whichever
 * Sentinel it asked before (possibly one still naming the old master), opens a
 * subscription per connection and Sentinel, and keeps them open after a connection ends
 * with QUIT (a finished process then never exits).
 */
export class SentinelFailoverWatch {
  private readonly connectors = new Set<HeldConnector>();
  private readonly subscribers: Redis[] = [];
  private hold: { from: string; released: Promise<void>; release: () => void } | null = null;
  private started = false;
  private closed = false;

  constructor(
    private readonly sentinels: readonly SentinelNode[],
    private readonly name: string,
  ) {}

  /** The ioredis `Connector` for this master's connections (ours and BullMQ's alike). */
  connectorClass(): RedisOptions['Connector'] {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const watch = this;
    class HeldSentinelConnector extends SentinelConnector {
      constructor(options: ConstructorParameters<typeof SentinelConnector>[0]) {
        super(options);
        watch.register(this as unknown as HeldConnector);
      }

      override async connect(...args: ConnectArguments) {
        await watch.settled();
        return super.connect(...args);
      }
    }
    return HeldSentinelConnector as unknown as RedisOptions['Connector'];
  }

  /** Resolves at once, or once a failover in progress has settled. */
  settled(): Promise<void> {
    return this.hold?.released ?? Promise.resolve();
  }

  /** Closes the subscriptions and lets any held connection go. */
  close(): void {
    this.closed = true;
    this.release();
    for (const subscriber of this.subscribers.splice(0)) subscriber.disconnect();
    this.connectors.clear();
  }

  private register(connector: HeldConnector): void {
    this.connectors.add(connector);
    if (this.started || this.closed) return;
    this.started = true;
    for (const sentinel of this.sentinels) {
      const subscriber = new Redis({
        host: sentinel.host,
        port: sentinel.port,
        connectionName: 'failover-watch',
        maxRetriesPerRequest: null,
        connectTimeout: 2_000,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      });
      subscriber.on('error', () => undefined);
      subscriber.on('message', (channel: string, message: string) =>
        this.onEvent(channel, message),
      );
      subscriber.on('pmessage', (_pattern: string, channel: string, message: string) =>
        this.onEvent(channel, message),
      );
      subscriber.subscribe('+selected-slave', '+switch-master').catch(() => undefined);
      subscriber.psubscribe('-failover-abort-*').catch(() => undefined);
      this.subscribers.push(subscriber);
    }
  }

  private onEvent(channel: string, message: string): void {
    const words = message.split(' ');
    if (channel === '+selected-slave') {
      // slave <ip:port> <ip> <port> @ <master name> <master ip> <master port>
      const at = words.indexOf('@');
      if (at >= 0 && words[at + 1] === this.name) this.begin(`${words[at + 2]}:${words[at + 3]}`);
    } else if (channel === '+switch-master') {
      // <master name> <old ip> <old port> <new ip> <new port>
      if (words[0] === this.name) this.begin(`${words[1]}:${words[2]}`);
    } else if (channel.startsWith('-failover-abort')) {
      // master <master name> <ip> <port>
      if (words[1] === this.name) this.release();
    }
  }

  /** Drops every connection to `oldMaster` and holds reconnections until the switch is known. */
  private begin(oldMaster: string): void {
    if (this.closed) return;
    // Again at every event: a connection made just before the hold may have reached the old master.
    this.dropConnections();
    if (this.hold) return;
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.hold = { from: oldMaster, released, release };
    const limit = setTimeout(() => this.release(), HOLD_LIMIT_MS);
    limit.unref();
    void released.then(() => clearTimeout(limit));
    void this.pollUntilSwitched(oldMaster);
  }

  /**
   * Cuts the established connections; ioredis reconnects each (through connect(), held).
   * A connection still being made is left alone: disconnecting it would end it for good.
   */
  private dropConnections(): void {
    for (const connector of this.connectors) {
      const stream = connector.stream;
      if (stream && !stream.destroyed) stream.destroy();
    }
  }

  private release(): void {
    const hold = this.hold;
    this.hold = null;
    hold?.release();
  }

  /** Releases the hold once every Sentinel that answers names one master, not `oldMaster`. */
  private async pollUntilSwitched(oldMaster: string): Promise<void> {
    while (this.hold?.from === oldMaster && !this.closed) {
      const named = (
        await Promise.all(this.sentinels.map((node) => this.masterNamedBy(node)))
      ).filter((address): address is string => address !== null);
      if (
        named.length > 0 &&
        named.every((address) => address === named[0]) &&
        named[0] !== oldMaster
      ) {
        if (this.hold?.from === oldMaster) this.release();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
    }
  }

  /** The master one Sentinel names now, or null when it does not answer. */
  private async masterNamedBy(node: SentinelNode): Promise<string | null> {
    const client = new Redis({
      host: node.host,
      port: node.port,
      lazyConnect: true,
      connectTimeout: 500,
      commandTimeout: 500,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const answer = (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name)) as
        [string, string] | null;
      return answer ? `${answer[0]}:${answer[1]}` : null;
    } catch {
      return null;
    } finally {
      client.disconnect();
    }
  }
}
