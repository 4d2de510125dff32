import { Transactional } from '@app/platform/testing';
import { SecurityEventRepository } from '../application/ports/security-event.repository.port';
import {
  SecurityNoticeJob,
  SecurityNoticeQueue,
} from '../application/ports/security-notice.queue.port';
import { SecurityNoticeRepository } from '../application/ports/security-notice.repository.port';
import {
  NewTrustedDevice,
  TrustedDeviceRepository,
} from '../application/ports/trusted-device.repository.port';
import { NewSecurityEvent, SecurityEvent } from '../domain/security-event';
import { isActiveDevice, TrustedDevice } from '../domain/trusted-device';

/**
 * In-memory fakes of the account-security ports (events, notices, trusted devices); the
 * contract suites keep them true to the PostgreSQL adapters. Each joins a
 * SnapshotUnitOfWork, so "a rolled-back change records nothing" is a unit test.
 */

export class InMemorySecurityEventRepository
  extends SecurityEventRepository
  implements Transactional
{
  rows: SecurityEvent[] = [];
  private nextId = 1;

  snapshot() {
    const rows = this.rows.map((row) => ({ ...row }));
    const nextId = this.nextId;
    return () => {
      this.rows = rows;
      // Like a sequence, ids are not given back by a rollback.
      this.nextId = Math.max(this.nextId, nextId);
    };
  }

  async append(event: NewSecurityEvent): Promise<SecurityEvent> {
    const row = { ...event, details: { ...event.details }, id: this.nextId++ };
    this.rows.push(row);
    return { ...row };
  }

  async listPage(userId: number, limit: number, beforeId: number | null) {
    return this.rows
      .filter((row) => row.userId === userId && (beforeId === null || row.id < beforeId))
      .sort((a, b) => b.id - a.id)
      .slice(0, limit)
      .map((row) => ({ ...row }));
  }

  async pruneBatch(before: Date, batchSize: number) {
    const doomed = new Set(
      this.rows
        .filter((row) => row.occurredAt.getTime() < before.getTime())
        .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id)
        .slice(0, batchSize)
        .map((row) => row.id),
    );
    this.rows = this.rows.filter((row) => !doomed.has(row.id));
    this.onPrune?.(doomed);
    return doomed.size;
  }

  /** The notices of pruned events go with them (the foreign key's cascade). */
  onPrune?: (eventIds: Set<number>) => void;
}

interface NoticeRow {
  eventId: number;
  createdAt: Date;
  sentAt: Date | null;
  abandonedAt: Date | null;
}

export class InMemorySecurityNoticeRepository
  extends SecurityNoticeRepository
  implements Transactional
{
  rows = new Map<number, NoticeRow>();

  constructor(private readonly events: InMemorySecurityEventRepository) {
    super();
    events.onPrune = (ids) => {
      for (const id of ids) this.rows.delete(id);
    };
  }

  snapshot() {
    const rows = new Map([...this.rows].map(([id, row]) => [id, { ...row }]));
    return () => {
      this.rows = rows;
    };
  }

  async addPending(eventId: number, at: Date) {
    if (!this.rows.has(eventId))
      this.rows.set(eventId, { eventId, createdAt: at, sentAt: null, abandonedAt: null });
  }

  async findPending(eventId: number) {
    const row = this.rows.get(eventId);
    if (!row || row.sentAt || row.abandonedAt) return null;
    const event = this.events.rows.find((candidate) => candidate.id === eventId);
    return event ? { ...event } : null;
  }

  async markSent(eventId: number, at: Date) {
    const row = this.rows.get(eventId);
    if (!row || row.sentAt || row.abandonedAt) return false;
    row.sentAt = at;
    return true;
  }

  async markAbandoned(eventId: number, at: Date) {
    const row = this.rows.get(eventId);
    if (!row || row.sentAt || row.abandonedAt) return false;
    row.abandonedAt = at;
    return true;
  }

  async pendingSince(createdBefore: Date, limit: number) {
    return [...this.rows.values()]
      .filter((row) => !row.sentAt && !row.abandonedAt && row.createdAt < createdBefore)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.eventId - b.eventId)
      .slice(0, limit)
      .map((row) => row.eventId);
  }
}

/** Records the notices queued (and whether the enqueue waited); `failing` throws instead. */
export class RecordingSecurityNoticeQueue extends SecurityNoticeQueue {
  readonly jobs: Array<SecurityNoticeJob & { awaitFirstAttempt: boolean }> = [];
  failing = false;

  async enqueue(job: SecurityNoticeJob, options: { awaitFirstAttempt: boolean }) {
    if (this.failing) throw new Error('queue unreachable');
    this.jobs.push({ ...job, ...options });
  }
}

type StoredDevice = TrustedDevice & { tokenFingerprint: string };

export class InMemoryTrustedDeviceRepository
  extends TrustedDeviceRepository
  implements Transactional
{
  rows: StoredDevice[] = [];
  private nextId = 1;

  snapshot() {
    const rows = this.rows.map((row) => ({ ...row }));
    return () => {
      this.rows = rows;
    };
  }

  async create(device: NewTrustedDevice): Promise<TrustedDevice> {
    if (this.rows.some((row) => row.tokenFingerprint === device.tokenFingerprint))
      throw new Error('duplicate token fingerprint');
    const row: StoredDevice = {
      ...device,
      id: this.nextId++,
      lastUsedAt: null,
      revokedAt: null,
    };
    this.rows.push(row);
    return strip(row);
  }

  async findActive(userId: number, fingerprints: string[], now: Date) {
    const row = this.rows.find(
      (candidate) =>
        candidate.userId === userId &&
        fingerprints.includes(candidate.tokenFingerprint) &&
        isActiveDevice(candidate, now),
    );
    return row ? strip(row) : null;
  }

  async recordUse(deviceId: number, now: Date) {
    const row = this.rows.find((candidate) => candidate.id === deviceId);
    if (row) row.lastUsedAt = now;
  }

  async listActive(userId: number, now: Date) {
    return this.active(userId, now).map(strip);
  }

  async revoke(userId: number, deviceId: number, now: Date) {
    const row = this.active(userId, now).find((candidate) => candidate.id === deviceId);
    if (!row) return false;
    row.revokedAt = now;
    return true;
  }

  async revokeAll(userId: number, now: Date) {
    const rows = this.active(userId, now);
    for (const row of rows) row.revokedAt = now;
    return rows.length;
  }

  async revokeBeyond(userId: number, keep: number, now: Date) {
    const rows = this.active(userId, now).slice(keep);
    for (const row of rows) row.revokedAt = now;
    return rows.length;
  }

  /** Active rows of the user, newest first (the rows themselves, for updates). */
  private active(userId: number, now: Date): StoredDevice[] {
    return this.rows
      .filter((row) => row.userId === userId && isActiveDevice(row, now))
      .sort((a, b) => b.id - a.id);
  }
}

function strip(row: StoredDevice): TrustedDevice {
  const { tokenFingerprint: _fingerprint, ...device } = row;
  return { ...device };
}
