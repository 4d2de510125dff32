import { ManualClock, SeededRandomSource, testSecretKeeper } from '@app/platform/testing';
import { User } from '@app/accounts';
import { CounterName, DomainError, Metrics } from '@app/platform';
import { accountsKit, RecordingSessionRevocation } from '@app/accounts/testing';
import { AddMethodGate } from '../application/add-method-gate.service';
import { BackupCodeIssuer } from '../application/backup-code-issuer.service';
import { BackupCodeVerifier } from '../application/backup-code-verifier.service';
import { ChallengeCodeVerifier } from '../application/challenge-code-verifier.service';
import { ChallengeService } from '../application/challenge.service';
import { DeviceTrust } from '../application/device-trust.service';
import { MethodRecords } from '../application/method-records.service';
import { SecondFactorVerifier } from '../application/second-factor-verifier.service';
import { SecurityEventLog } from '../application/security-event-log.service';
import { SmsBudget } from '../application/sms-budget.service';
import { TfaUserLookup } from '../application/tfa-user-lookup.service';
import { TotpVerifier } from '../application/totp-verifier.service';
import { VerificationFlow } from '../application/verification-flow.service';
import { codeAad } from '../domain/challenge';
import { TfaMethod, totpSecretAad } from '../domain/tfa-method';
import { encodeBase32, totpCodeForStep, totpStepAt } from '../domain/totp';
import { TfaSettings } from '../domain/tfa-policy';
import { channelView, FailureChannel } from '../domain/verification-failures';
import {
  InMemorySecurityEventRepository,
  InMemorySecurityNoticeRepository,
  InMemoryTrustedDeviceRepository,
  RecordingSecurityNoticeQueue,
} from './in-memory-account-security.fakes';
import {
  InMemoryAuthorizationStore,
  InMemoryBackupCodeRepository,
  InMemoryChallengeStore,
  InMemoryTfaMethodRepository,
  InMemoryVerificationLedger,
  RecordingCodeDeliveryQueue,
  RecordingSmsSendingPolicy,
  SnapshotUnitOfWork,
} from './in-memory-tfa.fakes';

/**
 * The 2FA application layer wired to in-memory fakes, a manual clock and seeded
 * randomness: every service a use case takes, built as the module builds it.
 */
export function tfaTestKit() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const random = new SeededRandomSource(42);
  const secrets = testSecretKeeper();
  const uow = new SnapshotUnitOfWork();
  const methods = new InMemoryTfaMethodRepository(clock);
  const backupCodes = new InMemoryBackupCodeRepository();
  const ledger = new InMemoryVerificationLedger(uow);
  const events = new InMemorySecurityEventRepository();
  const notices = new InMemorySecurityNoticeRepository(events);
  const devices = new InMemoryTrustedDeviceRepository();
  uow.join(methods, backupCodes, ledger, events, notices, devices);
  const noticeQueue = new RecordingSecurityNoticeQueue();
  const store = new InMemoryChallengeStore();
  const authorizations = new InMemoryAuthorizationStore();
  const queue = new RecordingCodeDeliveryQueue();
  const smsPolicy = new RecordingSmsSendingPolicy();
  const accounts = accountsKit(clock);
  const { users, credentials } = accounts;
  const sessions = new RecordingSessionRevocation();
  const metrics = new CountingMetrics();
  const settings = Object.assign(new TfaSettings(), {
    totpIssuer: 'GPU Marketplace',
    trustedDeviceDays: 30,
    securityEventRetentionDays: 400,
    noticeRetrySeconds: 60,
  });

  const challenges = new ChallengeService(store, queue, secrets, random, clock);
  const records = new MethodRecords(ledger, clock);
  const eventLog = new SecurityEventLog(events, notices, noticeQueue, uow, clock);
  const deviceTrust = new DeviceTrust(devices, eventLog, secrets, random, settings, uow, clock);
  const flow = new VerificationFlow(ledger, challenges, clock, metrics, uow, eventLog);
  const verifier = new SecondFactorVerifier(
    methods,
    challenges,
    new TotpVerifier(methods, secrets, clock),
    new ChallengeCodeVerifier(challenges, ledger, methods, clock),
    new BackupCodeVerifier(backupCodes, secrets, clock),
    flow,
  );
  const gate = new AddMethodGate(authorizations, clock);
  const backupCodeIssuer = new BackupCodeIssuer(backupCodes, random, secrets);
  const smsBudget = new SmsBudget(smsPolicy);
  const lookup = new TfaUserLookup(users, challenges);
  const credentialIssuer = accounts.issuer;

  /** The code of the last queued delivery, as the worker would decrypt it. */
  const lastCode = async (): Promise<string> => {
    const job = queue.jobs[queue.jobs.length - 1];
    const copy = await store.readDeliveryCopy(job.challengeKey);
    return secrets.decrypt(copy!.codeCiphertext, codeAad(job.challengeKey))!;
  };

  /** A TOTP method with a readable secret, and the app's code for a step near now. */
  const addTotpMethod = async (userId: number, options: Partial<TfaMethod> = {}) => {
    const secret = encodeBase32(Buffer.alloc(20, 9));
    const method = (await methods.create({
      userId,
      type: 'totp',
      label: 'app',
      phoneNumber: null,
      isPrimary: true,
      lastTotpStep: null,
      ...options,
    }))!;
    await methods.setTotpSecret(method.id, secrets.encrypt(secret, totpSecretAad(method.id)));
    const codeAt = (offsetSteps = 0) =>
      totpCodeForStep(secret, totpStepAt(clock.nowMs()) + offsetSteps);
    return { method, secret, codeAt };
  };

  const addSmsMethod = async (userId: number, phoneNumber: string, isPrimary = true) =>
    (await methods.create({
      userId,
      type: 'sms',
      label: `SMS ${phoneNumber.slice(-4)}`,
      phoneNumber,
      isPrimary,
      lastTotpStep: null,
    }))!;

  /** A user with 2FA on (its status unless told otherwise). */
  const addUser = (id = 7, partial: Partial<User> = {}) =>
    users.add({ id, tfaEnabled: true, tfaStatus: 'enabled', ...partial });

  /** The user's events, oldest first, as `kind` or `kind:method` (what most specs check). */
  const eventKinds = (userId: number) =>
    events.rows
      .filter((event) => event.userId === userId)
      .map((event) => (event.method ? `${event.kind}:${event.method}` : event.kind));

  /** Wrong codes counted on the channel now (the method record's fail_count). */
  const failCount = async (userId: number, channel: FailureChannel) =>
    channelView(await ledger.load(userId), channel, clock.nowMs()).failCount;

  return {
    clock,
    random,
    secrets,
    uow,
    methods,
    backupCodes,
    ledger,
    events,
    notices,
    noticeQueue,
    devices,
    eventLog,
    deviceTrust,
    store,
    authorizations,
    queue,
    smsPolicy,
    users,
    credentials,
    sessions,
    metrics,
    settings,
    challenges,
    records,
    flow,
    verifier,
    gate,
    backupCodeIssuer,
    smsBudget,
    lookup,
    credentialIssuer,
    lastCode,
    addTotpMethod,
    addSmsMethod,
    addUser,
    eventKinds,
    failCount,
  };
}

export type TfaTestKit = ReturnType<typeof tfaTestKit>;

/** Records counter increments. */
export class CountingMetrics extends Metrics {
  readonly counts: Array<{ name: CounterName; labels: Record<string, string> }> = [];
  increment(name: CounterName, labels: Record<string, string> = {}): void {
    this.counts.push({ name, labels });
  }
}

/** The DomainError a promise rejects with (fails the test if it resolves or throws another). */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError, but the promise resolved');
}

/** Where unit-test requests come from. */
export const ORIGIN = { address: '203.0.113.7', userAgent: 'unit-test/1.0' } as const;

/** A 6-digit code other than `code`. */
export const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
