import {
  InlineUnitOfWork,
  ManualClock,
  SeededRandomSource,
  testSecretKeeper,
} from '@app/platform/testing';
import { CounterName, Metrics } from '@app/platform';
import { AddMethodGate } from '../application/add-method-gate';
import { ChallengeService } from '../application/challenge.service';
import { SecondFactorVerifier } from '../application/second-factor-verifier';
import { TfaUserLookup } from '../application/tfa-user-lookup';
import {
  InMemoryAuthorizationStore,
  InMemoryBackupCodeRepository,
  InMemoryChallengeStore,
  InMemoryTfaMethodRepository,
  InMemoryUserRepository,
  InMemoryVerificationLedger,
  RecordingCodeDeliveryQueue,
} from './in-memory-tfa.fakes';

/** The 2FA core wired to in-memory fakes, a manual clock and seeded randomness. */
export function tfaTestKit() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const random = new SeededRandomSource(42);
  const secrets = testSecretKeeper();
  const methods = new InMemoryTfaMethodRepository(clock);
  const backupCodes = new InMemoryBackupCodeRepository();
  const store = new InMemoryChallengeStore();
  const authorizations = new InMemoryAuthorizationStore();
  const queue = new RecordingCodeDeliveryQueue();
  const users = new InMemoryUserRepository();
  const challenges = new ChallengeService(store, queue, secrets, random, clock);
  const metrics = new CountingMetrics();
  const ledger = new InMemoryVerificationLedger();
  const verifier = new SecondFactorVerifier(
    methods,
    backupCodes,
    challenges,
    ledger,
    secrets,
    clock,
    metrics,
    new InlineUnitOfWork(),
  );
  const gate = new AddMethodGate(authorizations, clock);
  const lookup = new TfaUserLookup(users, challenges);
  /** The code of the last queued delivery, as the worker would decrypt it. */
  const lastCode = async (): Promise<string> => {
    const job = queue.jobs[queue.jobs.length - 1];
    const copy = await store.readDeliveryCopy(job.challengeKey);
    return secrets.decrypt(copy!.codeCiphertext, `tfa-challenge:${job.challengeKey}`)!;
  };
  return {
    metrics,
    clock,
    random,
    secrets,
    methods,
    backupCodes,
    store,
    ledger,
    authorizations,
    queue,
    users,
    challenges,
    verifier,
    gate,
    lookup,
    lastCode,
  };
}

/** Records counter increments. */
export class CountingMetrics extends Metrics {
  readonly counts: Array<{ name: CounterName; labels: Record<string, string> }> = [];
  increment(name: CounterName, labels: Record<string, string> = {}): void {
    this.counts.push({ name, labels });
  }
}
