import { Clock } from '@app/platform';
import { SnapshotUnitOfWork, Transactional } from '@app/platform/testing';
import { AuthorizationStore } from '../application/ports/authorization.store.port';
import { BackupCodeRepository } from '../application/ports/backup-code.repository.port';
import {
  AttachedCode,
  ChallengeStore,
  DeliveryCopy,
} from '../application/ports/challenge.store.port';
import {
  CodeDeliveryJob,
  CodeDeliveryQueue,
  FirstAttemptReport,
} from '../application/ports/code-delivery.queue.port';
import {
  EmailSendingPolicy,
  EmailSendRequest,
} from '../application/ports/email-sending-policy.port';
import {
  SmsSendingPolicy,
  SmsSendPermit,
  SmsSendRequest,
} from '../application/ports/sms-sending-policy.port';
import { NewTfaMethod, TfaMethodRepository } from '../application/ports/tfa-method.repository.port';
import { VerificationLedger } from '../application/ports/verification-ledger.port';
import { Challenge, ChallengeLookup } from '../domain/challenge';
import { TfaMethod } from '../domain/tfa-method';
import { emptyLedger, FailureLedger } from '../domain/verification-failures';

/** In-memory fakes of the 2FA ports for fast use-case tests; contract suites keep them true. */

export class InMemoryTfaMethodRepository extends TfaMethodRepository implements Transactional {
  rows = new Map<number, TfaMethod>();
  private nextId = 1;

  constructor(private readonly clock: Clock) {
    super();
  }

  snapshot() {
    const rows = new Map([...this.rows].map(([id, row]) => [id, { ...row }]));
    return () => {
      this.rows = rows;
    };
  }

  async listByUser(userId: number) {
    return [...this.rows.values()]
      .filter((m) => m.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map((m) => ({ ...m }));
  }
  async findById(id: number) {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }
  async create(method: NewTfaMethod) {
    if ([...this.rows.values()].some((m) => m.userId === method.userId && m.type === method.type))
      return null;
    const row: TfaMethod = {
      id: this.nextId++,
      ...method,
      totpSecretCiphertext: null,
      createdAt: this.clock.now(),
      lastUsedAt: null,
    };
    this.rows.set(row.id, row);
    return { ...row };
  }
  async setTotpSecret(methodId: number, ciphertext: string) {
    this.rows.get(methodId)!.totpSecretCiphertext = ciphertext;
  }
  async update(methodId: number, changes: { label?: string; isPrimary?: boolean }) {
    const row = this.rows.get(methodId)!;
    if (changes.label !== undefined) row.label = changes.label;
    if (changes.isPrimary !== undefined) row.isPrimary = changes.isPrimary;
    return { ...row };
  }
  async makeOnlyPrimary(userId: number, methodId: number) {
    for (const row of this.rows.values())
      if (row.userId === userId) row.isPrimary = row.id === methodId;
  }
  async delete(methodId: number) {
    this.rows.delete(methodId);
  }
  async recordUse(methodId: number, now: Date) {
    const row = this.rows.get(methodId);
    if (row) row.lastUsedAt = now;
  }
  async advanceTotpStep(methodId: number, step: number, usedAt: Date) {
    const row = this.rows.get(methodId);
    if (!row || (row.lastTotpStep !== null && row.lastTotpStep >= step)) return false;
    row.lastTotpStep = step;
    row.lastUsedAt = usedAt;
    return true;
  }
}

interface BackupCodeRow {
  userId: number;
  digest: string;
  usedAt: Date | null;
  deletedAt: Date | null;
}

export class InMemoryBackupCodeRepository extends BackupCodeRepository implements Transactional {
  rows: BackupCodeRow[] = [];

  snapshot() {
    const rows = this.rows.map((row) => ({ ...row }));
    return () => {
      this.rows = rows;
    };
  }

  async replaceSet(userId: number, digests: string[]) {
    for (const row of this.rows)
      if (row.userId === userId && !row.deletedAt) row.deletedAt = new Date();
    for (const digest of digests) this.rows.push({ userId, digest, usedAt: null, deletedAt: null });
  }
  async countUnused(userId: number) {
    return this.rows.filter((r) => r.userId === userId && !r.usedAt && !r.deletedAt).length;
  }
  async consume(userId: number, digest: string, now: Date) {
    const row = this.rows.find(
      (r) => r.userId === userId && r.digest === digest && !r.usedAt && !r.deletedAt,
    );
    if (!row) return false;
    row.usedAt = now;
    return true;
  }
  async wasUsed(userId: number, digest: string) {
    return this.rows.some((r) => r.userId === userId && r.digest === digest && r.usedAt);
  }
  async softDeleteAll(userId: number, now: Date) {
    for (const row of this.rows) if (row.userId === userId && !row.deletedAt) row.deletedAt = now;
  }
}

type StoredChallenge = Challenge & { codeCiphertext: string | null; deliverySend: number };

/** Challenges with the Redis adapter's semantics; the TTL is left to the clock check. */
export class InMemoryChallengeStore extends ChallengeStore {
  readonly challenges = new Map<string, StoredChallenge>();
  readonly markers = new Map<string, 'open' | 'cleared'>();
  readonly recentSms = new Map<number, string>();
  readonly pending = new Map<number, string>();
  /** `<key>-<send>` of sends whose every attempt failed. */
  readonly deliveryFailed = new Set<string>();
  /** When set, every call fails as a store that is away would. */
  failing = false;

  private up(): void {
    if (this.failing) throw new Error('challenge store down');
  }

  async create(challenge: Challenge) {
    this.up();
    this.challenges.set(challenge.key, { ...challenge, codeCiphertext: null, deliverySend: 0 });
    this.markers.set(challenge.key, 'open');
  }
  async find(key: string): Promise<ChallengeLookup> {
    this.up();
    const found = this.challenges.get(key);
    if (found) return { state: 'active', challenge: toChallenge(found) };
    const marker = this.markers.get(key);
    if (!marker) return { state: 'unknown' };
    return { state: marker === 'cleared' ? 'cleared' : 'expired' };
  }
  async attachCode(key: string, code: AttachedCode) {
    this.up();
    const found = this.challenges.get(key);
    if (!found) return null;
    Object.assign(found, code);
    found.sends += 1;
    found.deliverySend = found.sends;
    return found.sends;
  }
  async consume(key: string) {
    this.up();
    const found = this.challenges.get(key);
    if (!found) return false;
    this.challenges.delete(key);
    this.markers.set(key, 'cleared');
    if (this.recentSms.get(found.userId) === key) this.recentSms.delete(found.userId);
    return true;
  }
  async readDeliveryCopy(key: string): Promise<(DeliveryCopy & Challenge) | null> {
    this.up();
    const found = this.challenges.get(key);
    if (!found?.codeCiphertext) return null;
    return {
      ...toChallenge(found),
      codeCiphertext: found.codeCiphertext,
      sendNumber: found.deliverySend,
    };
  }
  async resendCode(key: string) {
    this.up();
    const found = this.challenges.get(key);
    if (!found?.codeCiphertext) return null;
    found.sends += 1;
    found.deliverySend = found.sends;
    return found.sends;
  }
  async markDeliveryFailed(key: string, sendNumber: number) {
    this.up();
    const found = this.challenges.get(key);
    if (found && found.deliverySend === sendNumber) this.deliveryFailed.add(`${key}-${sendNumber}`);
  }
  async rememberPendingSms(userId: number, key: string) {
    this.up();
    this.pending.set(userId, key);
  }
  async pendingSms(userId: number) {
    this.up();
    return this.pending.get(userId) ?? null;
  }
  readonly pendingEmail = new Map<string, string>();
  async replacePendingEmail(userId: number, purpose: string, key: string) {
    this.up();
    const previous = this.pendingEmail.get(`${purpose}:${userId}`) ?? null;
    this.pendingEmail.set(`${purpose}:${userId}`, key);
    return previous;
  }
  async rekey(
    oldKey: string,
    newKey: string,
    code: { codeDigest: string; codeCiphertext: string },
  ) {
    this.up();
    const found = this.challenges.get(oldKey);
    if (!found || this.challenges.has(newKey)) return false;
    this.challenges.delete(oldKey);
    this.markers.set(oldKey, 'cleared');
    this.challenges.set(newKey, {
      ...found,
      key: newKey,
      codeDigest: code.codeDigest,
      codeCiphertext: code.codeCiphertext,
    });
    this.markers.set(newKey, 'open');
    return true;
  }
  async reserveRecentSms(userId: number, key: string, _windowMs: number) {
    this.up();
    if (this.recentSms.has(userId)) return false;
    this.recentSms.set(userId, key);
    return true;
  }
  async releaseRecentSms(userId: number, key: string) {
    this.up();
    if (this.recentSms.get(userId) === key) this.recentSms.delete(userId);
  }
  /** Simulates the TTL running out. */
  drop(key: string) {
    this.challenges.delete(key);
  }
}

/** The stored fields a challenge is made of (what the Redis hash holds). */
function toChallenge(stored: StoredChallenge): Challenge {
  return {
    id: stored.id,
    key: stored.key,
    userId: stored.userId,
    purpose: stored.purpose,
    channel: stored.channel,
    destination: stored.destination,
    methodId: stored.methodId,
    codeDigest: stored.codeDigest,
    sends: stored.sends,
    createdAtMs: stored.createdAtMs,
  };
}

/**
 * The ledger without a lock: unit tests run one verification at a time. Like the
 * PostgreSQL adapter, it locks only inside a unit of work, and rolls back with it.
 */
export class InMemoryVerificationLedger extends VerificationLedger implements Transactional {
  ledgers = new Map<number, FailureLedger>();
  spent = new Set<string>();

  constructor(private readonly unitOfWork: SnapshotUnitOfWork) {
    super();
  }

  snapshot() {
    const ledgers = structuredClone(this.ledgers);
    const spent = new Set(this.spent);
    return () => {
      this.ledgers = ledgers;
      this.spent = spent;
    };
  }

  async lockAndLoad(userId: number) {
    await this.lockUser(userId);
    return this.load(userId);
  }
  /** Records who took the lock (the fakes run one request at a time, so it holds nothing). */
  readonly locked: number[] = [];
  async lockUser(userId: number) {
    if (!this.unitOfWork.inTransaction)
      throw new Error('VerificationLedger.lockUser must run inside a unit of work');
    this.locked.push(userId);
  }
  async load(userId: number) {
    return structuredClone(this.ledgers.get(userId) ?? emptyLedger());
  }
  async save(userId: number, ledger: FailureLedger) {
    this.ledgers.set(userId, structuredClone(ledger));
  }
  async markChallengeSpent(challengeId: string) {
    if (this.spent.has(challengeId)) return false;
    this.spent.add(challengeId);
    return true;
  }
  async isChallengeSpent(challengeId: string) {
    return this.spent.has(challengeId);
  }
}

export class InMemoryAuthorizationStore extends AuthorizationStore {
  readonly grants = new Map<number, number>();
  failing = false;

  async grant(userId: number, grantedAtMs: number) {
    if (this.failing) throw new Error('store down');
    this.grants.set(userId, grantedAtMs);
  }
  async grantedAt(userId: number) {
    if (this.failing) throw new Error('store down');
    return this.grants.get(userId) ?? null;
  }
}

export class RecordingCodeDeliveryQueue extends CodeDeliveryQueue {
  readonly jobs: CodeDeliveryJob[] = [];
  /** What the next enqueue reports of its first attempt. */
  nextReport: FirstAttemptReport = { state: 'sent' };
  async enqueue(job: CodeDeliveryJob): Promise<FirstAttemptReport> {
    this.jobs.push(job);
    return this.nextReport;
  }
}

/**
 * Admits every send unless told to refuse; records what was admitted and what was given
 * back, so a test can tell a charged send from a refunded one. One fake for the SMS and the
 * email budgets (their ports have the same shape).
 */
export class RecordingSendingPolicy<Request> {
  readonly admitted: Request[] = [];
  readonly refunded: Request[] = [];
  /** The error the next request is refused with, if any. */
  refuseWith: Error | null = null;

  async assertMaySend(request: Request): Promise<SmsSendPermit> {
    if (this.refuseWith) throw this.refuseWith;
    this.admitted.push(request);
    return {
      refund: async () => {
        this.refunded.push(request);
      },
    };
  }

  /** Sends admitted and not given back. */
  get charged(): number {
    return this.admitted.length - this.refunded.length;
  }
}

export class RecordingSmsSendingPolicy
  extends RecordingSendingPolicy<SmsSendRequest>
  implements SmsSendingPolicy {}

export class RecordingEmailSendingPolicy
  extends RecordingSendingPolicy<EmailSendRequest>
  implements EmailSendingPolicy {}
