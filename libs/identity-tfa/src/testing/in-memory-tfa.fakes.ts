import { TfaStatus, User, UserRepository } from '@app/accounts';
import { Clock } from '@app/platform';
import { AuthorizationStore } from '../application/ports/authorization.store.port';
import { BackupCodeRepository } from '../application/ports/backup-code.repository.port';
import {
  ChallengeLookup,
  ChallengeStore,
  DeliveryCopy,
} from '../application/ports/challenge.store.port';
import {
  CodeDeliveryJob,
  CodeDeliveryQueue,
  FirstAttemptReport,
} from '../application/ports/code-delivery.queue.port';
import { NewTfaMethod, TfaMethodRepository } from '../application/ports/tfa-method.repository.port';
import { VerificationLedger } from '../application/ports/verification-ledger.port';
import { Challenge } from '../domain/challenge';
import { TfaMethod } from '../domain/tfa-method';
import { emptyLedger, FailureLedger } from '../domain/verification-failures';

/** In-memory fakes of the 2FA ports for fast use-case tests. */

type NewUser = Parameters<UserRepository['create']>[0];
type UserWithPassword = Awaited<ReturnType<UserRepository['findByLogin']>>;

export class InMemoryTfaMethodRepository extends TfaMethodRepository {
  readonly rows = new Map<number, TfaMethod>();
  private nextId = 1;

  constructor(private readonly clock: Clock) {
    super();
  }

  async listByUser(userId: number) {
    return [...this.rows.values()].filter((m) => m.userId === userId).map((m) => ({ ...m }));
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
    this.rows.get(methodId)!.lastUsedAt = now;
  }
  async advanceTotpStep(methodId: number, step: number) {
    const row = this.rows.get(methodId)!;
    if (row.lastTotpStep !== null && row.lastTotpStep >= step) return false;
    row.lastTotpStep = step;
    return true;
  }
}

export class InMemoryBackupCodeRepository extends BackupCodeRepository {
  readonly rows: Array<{
    userId: number;
    digest: string;
    usedAt: Date | null;
    deletedAt: Date | null;
  }> = [];

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

/** Challenges with the Redis adapter's semantics; the TTL is left to the clock check. */
export class InMemoryChallengeStore extends ChallengeStore {
  readonly challenges = new Map<
    string,
    Challenge & { codeCiphertext: string | null; deliverySend: number }
  >();
  readonly markers = new Map<string, 'open' | 'cleared'>();
  readonly recentSms = new Map<number, string>();
  readonly pending = new Map<number, string>();
  /** `<key>-<send>` of sends whose every attempt failed. */
  readonly deliveryFailed = new Set<string>();

  async create(challenge: Challenge) {
    this.challenges.set(challenge.key, { ...challenge, codeCiphertext: null, deliverySend: 0 });
    this.markers.set(challenge.key, 'open');
  }
  async find(key: string): Promise<ChallengeLookup> {
    const found = this.challenges.get(key);
    if (found) return { state: 'active', challenge: { ...found } };
    const marker = this.markers.get(key);
    if (!marker) return { state: 'unknown' };
    return { state: marker === 'cleared' ? 'cleared' : 'expired' };
  }
  async attachCode(
    key: string,
    code: {
      channel: Challenge['channel'];
      destination: string | null;
      methodId: number | null;
      codeDigest: string | null;
      codeCiphertext: string | null;
    },
  ) {
    const found = this.challenges.get(key);
    if (!found) return null;
    Object.assign(found, code);
    found.sends += 1;
    found.deliverySend = found.sends;
    return found.sends;
  }
  async consume(key: string) {
    const found = this.challenges.get(key);
    if (!found) return false;
    this.challenges.delete(key);
    this.markers.set(key, 'cleared');
    if (this.recentSms.get(found.userId) === key) this.recentSms.delete(found.userId);
    return true;
  }
  async readDeliveryCopy(key: string): Promise<(DeliveryCopy & Challenge) | null> {
    const found = this.challenges.get(key);
    if (!found?.codeCiphertext) return null;
    return { ...found, codeCiphertext: found.codeCiphertext, sendNumber: found.deliverySend };
  }
  async resendCode(key: string) {
    const found = this.challenges.get(key);
    if (!found?.codeCiphertext) return null;
    found.sends += 1;
    found.deliverySend = found.sends;
    return found.sends;
  }
  async markDeliveryFailed(key: string, sendNumber: number) {
    const found = this.challenges.get(key);
    if (found && found.deliverySend === sendNumber) this.deliveryFailed.add(`${key}-${sendNumber}`);
  }
  async rememberPendingSms(userId: number, key: string) {
    this.pending.set(userId, key);
  }
  async pendingSms(userId: number) {
    return this.pending.get(userId) ?? null;
  }
  async rekey(
    oldKey: string,
    newKey: string,
    code: { codeDigest: string; codeCiphertext: string },
  ) {
    const found = this.challenges.get(oldKey);
    if (!found) return false;
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
  async reserveRecentSms(userId: number, key: string) {
    if (this.recentSms.has(userId)) return false;
    this.recentSms.set(userId, key);
    return true;
  }
  async releaseRecentSms(userId: number, key: string) {
    if (this.recentSms.get(userId) === key) this.recentSms.delete(userId);
  }
  /** Simulates the TTL running out. */
  drop(key: string) {
    this.challenges.delete(key);
  }
}

/** The ledger without a lock: unit tests run one verification at a time. */
export class InMemoryVerificationLedger extends VerificationLedger {
  readonly ledgers = new Map<number, FailureLedger>();
  readonly spent = new Set<string>();

  async lockAndLoad(userId: number) {
    return this.load(userId);
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

export class InMemoryUserRepository extends UserRepository {
  readonly users = new Map<number, User>();

  add(partial: Partial<User> & { id: number }): User {
    const user: User = {
      email: `user${partial.id}@example.test`,
      username: null,
      fullName: '',
      emailVerifiedAt: new Date(0),
      isAdmin: false,
      phoneNumber: null,
      tfaEnabled: false,
      tfaStatus: 'disabled',
      credit: 0,
      balance: 0,
      smsFraudFlaggedAt: null,
      createdAt: new Date(0),
      ...partial,
    };
    this.users.set(user.id, user);
    return user;
  }
  async findById(id: number) {
    return this.users.get(id) ?? null;
  }
  async findByLogin(): Promise<UserWithPassword> {
    return null;
  }
  async create(user: NewUser): Promise<User> {
    return this.add({ id: this.users.size + 1, email: user.email });
  }
  async upsert(user: NewUser & { id: number }): Promise<User> {
    return this.add({ id: user.id, email: user.email });
  }
  async setTfaState(userId: number, enabled: boolean, status: TfaStatus) {
    Object.assign(this.users.get(userId)!, { tfaEnabled: enabled, tfaStatus: status });
  }
  async setSmsFraudFlag(userId: number, flaggedAt: Date | null) {
    const user = this.users.get(userId);
    if (!user) return false;
    user.smsFraudFlaggedAt = flaggedAt;
    return true;
  }
}
