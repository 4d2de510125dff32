import {
  ManualClock,
  RecordingMetrics,
  SeededRandomSource,
  SnapshotUnitOfWork,
  testSecretKeeper,
} from '@app/platform/testing';
import { User } from '@app/accounts';
import { accountsKit } from '@app/accounts/testing';
import { accountSecurityKit } from '@app/account-security/testing';
import { AddMethodGate } from '../application/methods/add-method-gate.service';
import { BackupCodeIssuer } from '../application/backup-codes/backup-code-issuer.service';
import { BackupCodeVerifier } from '../application/verification/backup-code-verifier.service';
import { ChallengeCodeVerifier } from '../application/verification/challenge-code-verifier.service';
import { ChallengeService } from '../application/challenges/challenge.service';
import { MethodRecords } from '../application/methods/method-records.service';
import { SecondFactorVerifier } from '../application/verification/second-factor-verifier.service';
import { SmsBudget } from '../application/challenges/sms-budget.service';
import { EmailBudget } from '../application/challenges/email-budget.service';
import { TfaUserLookup } from '../application/login/tfa-user-lookup.service';
import { TotpVerifier } from '../application/verification/totp-verifier.service';
import { VerificationFlow } from '../application/verification/verification-flow.service';
import { codeAad } from '../domain/challenge';
import { TfaMethod, totpSecretAad } from '../domain/tfa-method';
import { encodeBase32, totpCodeForStep, totpStepAt } from '../domain/totp';
import { TfaSettings } from '../domain/tfa-policy';
import { channelView, FailureChannel } from '../domain/verification-failures';
import {
  InMemoryAuthorizationStore,
  InMemoryBackupCodeRepository,
  InMemoryChallengeStore,
  InMemoryTfaMethodRepository,
  InMemoryVerificationLedger,
  RecordingCodeDeliveryQueue,
  RecordingEmailSendingPolicy,
  RecordingSmsSendingPolicy,
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
  uow.join(methods, backupCodes, ledger);
  const store = new InMemoryChallengeStore();
  const authorizations = new InMemoryAuthorizationStore();
  const queue = new RecordingCodeDeliveryQueue();
  const smsPolicy = new RecordingSmsSendingPolicy();
  const emailPolicy = new RecordingEmailSendingPolicy();
  const accounts = accountsKit(clock);
  const { users, credentials } = accounts;
  // Account security on the same clock, unit of work and users: the events and devices
  // of a failed unit of work go back with the methods and codes.
  const security = accountSecurityKit({ clock, uow, accounts, random, secrets });
  const { events, notices, noticeQueue, devices, sessions, eventLog, deviceTrust } = security;
  const metrics = new RecordingMetrics();
  const settings = Object.assign(new TfaSettings(), {
    totpIssuer: 'GPU Marketplace',
    messageBrand: 'GPU Marketplace',
  });

  const challenges = new ChallengeService(store, queue, secrets, random, clock);
  const records = new MethodRecords(ledger, clock);
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
  const emailBudget = new EmailBudget(emailPolicy);
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
  const eventKinds = security.eventKinds;

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
    emailPolicy,
    users,
    credentials,
    sessions,
    metrics,
    settings,
    securitySettings: security.settings,
    challenges,
    records,
    flow,
    verifier,
    gate,
    backupCodeIssuer,
    smsBudget,
    emailBudget,
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

/** The DomainError a promise rejects with: the platform's, for the specs that import it here. */
export { rejection } from '@app/platform/testing';

/** Where unit-test requests come from. */
export const ORIGIN = { address: '203.0.113.7', userAgent: 'unit-test/1.0' } as const;

/** A 6-digit code other than `code`. */
export const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
