import { CredentialCache } from '../application/ports/credential-cache.port';
import { testCredentialRecord } from './accounts-kit';

/** What the contract runs against. */
export interface CredentialCacheSubject {
  /** A new cache of one process, empty. */
  cache(): CredentialCache;
  /** Resolves once `cache` keeps records (the Redis cache first subscribes to the news). */
  ready(cache: CredentialCache): Promise<void>;
}

/**
 * One suite, run by a unit spec on InMemoryCredentialCache and by an int-spec on
 * RedisCredentialCache (docs/decisions.md "Credential cache"): what one process's cache
 * keeps and forgets. Only API keys are kept; a record read before a change is never kept;
 * a change of a user forgets that user's keys, a change of all forgets every key, at once
 * in the process that made it. Bounds (TTL, size) and the news between processes are the
 * Redis adapter's own, tested beside it.
 */
export function credentialCacheContract(setup: () => Promise<CredentialCacheSubject>): void {
  let subject: CredentialCacheSubject;
  let cache: CredentialCache;

  beforeAll(async () => {
    subject = await setup();
  });
  beforeEach(async () => {
    cache = subject.cache();
    await subject.ready(cache);
  });

  it('keeps an API key remembered at the current generation, and never a session', () => {
    cache.remember('key-a', testCredentialRecord(1, 7), cache.generation());
    cache.remember(
      'session-b',
      testCredentialRecord(2, 7, { kind: 'session' }),
      cache.generation(),
    );
    expect(cache.recall('key-a')).toEqual(testCredentialRecord(1, 7));
    expect(cache.recall('session-b')).toBeUndefined();
    expect(cache.recall('key-unknown')).toBeUndefined();
  });

  it('does not keep a record read before a change, whoever the change was about', () => {
    for (const change of [() => cache.userChanged(8), () => cache.allChanged()]) {
      const before = cache.generation();
      change();
      expect(cache.generation()).not.toBe(before);
      cache.remember('key-a', testCredentialRecord(1, 7), before);
      expect(cache.recall('key-a')).toBeUndefined();
    }
  });

  it("forgets a user's keys when the user changed, and only theirs", () => {
    cache.remember('key-a', testCredentialRecord(1, 7), cache.generation());
    cache.remember('key-b', testCredentialRecord(2, 7), cache.generation());
    cache.remember('key-c', testCredentialRecord(3, 8), cache.generation());
    cache.userChanged(7);
    expect([cache.recall('key-a'), cache.recall('key-b')]).toEqual([undefined, undefined]);
    expect(cache.recall('key-c')).toEqual(testCredentialRecord(3, 8));
    cache.remember('key-a', testCredentialRecord(1, 7), cache.generation());
    expect(cache.recall('key-a')).toEqual(testCredentialRecord(1, 7));
  });

  it('forgets every key when any may have changed', () => {
    cache.remember('key-a', testCredentialRecord(1, 7), cache.generation());
    cache.remember('key-c', testCredentialRecord(3, 8), cache.generation());
    cache.allChanged();
    expect([cache.recall('key-a'), cache.recall('key-c')]).toEqual([undefined, undefined]);
  });
}
