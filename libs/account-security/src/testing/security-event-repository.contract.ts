import { SecurityEventRepository } from '../application/ports/security-event.repository.port';
import { NewSecurityEvent } from '../domain/security-event';
import { UnitOfWork } from '@app/platform';

export interface SecurityEventRepositoryHarness {
  events: SecurityEventRepository;
  unitOfWork: UnitOfWork;
  /** A user the events can belong to (a row the adapter's foreign key accepts). */
  newUserId(): Promise<number>;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * What every SecurityEventRepository does, run against the in-memory fake (unit) and the
 * PostgreSQL adapter (integration).
 */
export function securityEventRepositoryContract(
  name: string,
  harness: () => SecurityEventRepositoryHarness,
): void {
  describe(`${name} (SecurityEventRepository contract)`, () => {
    let events: SecurityEventRepository;
    let unitOfWork: UnitOfWork;
    let newUserId: () => Promise<number>;
    beforeEach(() => {
      ({ events, unitOfWork, newUserId } = harness());
    });

    const event = (
      userId: number,
      overrides: Partial<NewSecurityEvent> = {},
    ): NewSecurityEvent => ({
      userId,
      kind: 'method_added',
      method: 'totp',
      details: { method_id: 12, changed: ['label', 'is_primary'], trusted_device: false },
      origin: { address: '203.0.113.7', userAgent: 'contract/1.0' },
      occurredAt: new Date(Date.UTC(2026, 0, 1, 12)),
      ...overrides,
    });

    it('appends an event as given and answers it with its id', async () => {
      const userId = await newUserId();
      const stored = await events.append(event(userId));
      expect(stored).toEqual({ ...event(userId), id: expect.any(Number) });
      const [read] = await events.listPage(userId, 10, null);
      expect(read).toEqual(stored);
      const operator = await events.append(
        event(userId, {
          kind: 'admin_reset',
          method: null,
          details: { reason: 'lost phone' },
          origin: { address: null, userAgent: 'manage' },
        }),
      );
      expect((await events.listPage(userId, 1, null))[0]).toEqual(operator);
    });

    it("pages one user's events newest first by id, never another user's", async () => {
      const userId = await newUserId();
      const other = await newUserId();
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await events.append(event(userId))).id);
      await events.append(event(other));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const first = await events.listPage(userId, 2, null);
      expect(first.map((e) => e.id)).toEqual([ids[4], ids[3]]);
      const second = await events.listPage(userId, 2, first[1].id);
      expect(second.map((e) => e.id)).toEqual([ids[2], ids[1]]);
      const last = await events.listPage(userId, 2, second[1].id);
      expect(last.map((e) => e.id)).toEqual([ids[0]]);
      expect(await events.listPage(userId, 2, ids[0])).toEqual([]);
    });

    it('prunes, in batches, only the events made before the instant', async () => {
      const userId = await newUserId();
      const now = Date.UTC(2026, 6, 1);
      const old = [];
      for (let i = 0; i < 3; i += 1)
        old.push(
          await events.append(event(userId, { occurredAt: new Date(now - (500 + i) * DAY_MS) })),
        );
      const recent = await events.append(event(userId, { occurredAt: new Date(now - DAY_MS) }));
      const before = new Date(now - 400 * DAY_MS);
      expect(await unitOfWork.run(() => events.pruneBatch(before, 2))).toBe(2);
      expect(await unitOfWork.run(() => events.pruneBatch(before, 2))).toBe(1);
      expect(await unitOfWork.run(() => events.pruneBatch(before, 2))).toBe(0);
      expect((await events.listPage(userId, 10, null)).map((e) => e.id)).toEqual([recent.id]);
    });
  });
}
