import { CredentialCache } from '../application/ports/credential-cache.port';
import { CredentialRecord } from '../domain/credential';

/**
 * The credential cache of one process without Redis: API key records kept until a change
 * is announced, with the same generation rule as RedisCredentialCache (a record read
 * before a change is not kept). `changes` lists what was announced, in order.
 */
export class InMemoryCredentialCache extends CredentialCache {
  readonly entries = new Map<string, CredentialRecord>();
  readonly changes: Array<number | 'all'> = [];
  private counter = 0;

  generation(): number {
    return this.counter;
  }

  recall(fingerprint: string): CredentialRecord | undefined {
    return this.entries.get(fingerprint);
  }

  remember(fingerprint: string, record: CredentialRecord, generation: number): void {
    if (generation !== this.counter || record.kind !== 'api_key') return;
    this.entries.set(fingerprint, record);
  }

  userChanged(userId: number): void {
    this.counter += 1;
    this.changes.push(userId);
    for (const [fingerprint, record] of this.entries) {
      if (record.userId === userId) this.entries.delete(fingerprint);
    }
  }

  allChanged(): void {
    this.counter += 1;
    this.changes.push('all');
    this.entries.clear();
  }
}
