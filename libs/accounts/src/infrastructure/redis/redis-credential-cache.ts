import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { performance } from 'node:perf_hooks';
import { RedisConnectionFactory, TransactionalEntityManager } from '@app/platform';
import { CredentialCache } from '../../application/ports/credential-cache.port';
import { CredentialRecord } from '../../domain/credential';

export interface CredentialCacheSettings {
  /** How long a record is trusted without news: the bound on a lost invalidation. */
  ttlMs: number;
  /** Most records kept; the least recently used go first. */
  maxEntries: number;
  /** Pub/sub channel, per Redis database so deployments sharing a server stay apart. */
  channel: string;
  /** False (embedded mode): no subscriber, so nothing is cached. */
  enabled: boolean;
}

interface Entry {
  record: CredentialRecord;
  freshUntil: number;
}

const EVERYONE = 'all';

/**
 * The credential cache of one api process (docs/decisions.md "Credential cache"). Changes
 * are announced on a Redis channel once committed; every process subscribes and forgets
 * what changed. Records are served only while the subscription is up (a message sent
 * while it was down is lost, so a reconnection forgets everything), and never longer than
 * `ttlMs`, which bounds a change no message announced (one made directly in SQL, or a
 * message lost in a reconnection race).
 */
export class RedisCredentialCache extends CredentialCache {
  private readonly logger = new Logger('CredentialCache');
  private readonly entries = new Map<string, Entry>();
  private changes = 0;
  private subscriber: Redis | null = null;
  private listening = false;

  constructor(
    private readonly connections: RedisConnectionFactory,
    private readonly publisher: Redis,
    private readonly tx: TransactionalEntityManager,
    private readonly settings: CredentialCacheSettings,
  ) {
    super();
  }

  generation(): number {
    return this.changes;
  }

  recall(fingerprint: string): CredentialRecord | undefined {
    if (!this.listening) {
      this.listen();
      return undefined;
    }
    const entry = this.entries.get(fingerprint);
    if (!entry) return undefined;
    if (entry.freshUntil <= performance.now()) {
      this.entries.delete(fingerprint);
      return undefined;
    }
    // Least recently used first: a hit moves to the back of the Map's order.
    this.entries.delete(fingerprint);
    this.entries.set(fingerprint, entry);
    return entry.record;
  }

  remember(fingerprint: string, record: CredentialRecord, generation: number): void {
    if (!this.listening || generation !== this.changes || record.kind !== 'api_key') return;
    this.entries.set(fingerprint, { record, freshUntil: performance.now() + this.settings.ttlMs });
    if (this.entries.size > this.settings.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  userChanged(userId: number): void {
    this.announce(String(userId));
  }

  allChanged(): void {
    this.announce(EVERYONE);
  }

  /** Forgets now (this process reads its own writes) and again once the change committed. */
  private announce(change: string): void {
    this.forget(change);
    this.tx.afterCommit(() => {
      this.forget(change);
      this.publisher.publish(this.settings.channel, change).catch((error: Error) => {
        // The other processes then hold the user's keys for at most the TTL.
        this.logger.warn(`credential change not announced: ${error.message}`);
      });
    });
  }

  private forget(change: string): void {
    this.changes++;
    if (change === EVERYONE) {
      this.entries.clear();
      return;
    }
    const userId = Number(change);
    for (const [fingerprint, entry] of this.entries) {
      if (entry.record.userId === userId) this.entries.delete(fingerprint);
    }
  }

  /** Subscribes on first use, so processes that never verify a key never connect. */
  private listen(): void {
    if (this.subscriber || !this.settings.enabled) return;
    const subscriber = this.connections.createSubscriberConnection('credential-changes');
    this.subscriber = subscriber;
    subscriber.on('message', (channel: string, change: string) => {
      if (channel === this.settings.channel) this.forget(change);
    });
    const lost = (): void => {
      this.listening = false;
      this.forget(EVERYONE);
    };
    subscriber.on('close', lost);
    subscriber.on('reconnecting', lost);
    // Subscribed (again, after a reconnection): news missed meanwhile is lost, so
    // everything is forgotten, then records are served again.
    const subscribe = (): void => {
      subscriber.subscribe(this.settings.channel).then(
        () => {
          this.forget(EVERYONE);
          this.listening = true;
        },
        (error: Error) => this.logger.warn(`credential changes not heard: ${error.message}`),
      );
    };
    subscriber.on('ready', subscribe);
    if (subscriber.status === 'ready') subscribe();
  }
}
