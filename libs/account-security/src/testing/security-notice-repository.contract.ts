import { SecurityEventRepository } from '../application/ports/security-event.repository.port';
import { SecurityNoticeRepository } from '../application/ports/security-notice.repository.port';

export interface SecurityNoticeRepositoryHarness {
  notices: SecurityNoticeRepository;
  events: SecurityEventRepository;
  newUserId(): Promise<number>;
}

/** What every SecurityNoticeRepository does, on the fake (unit) and PostgreSQL (integration). */
export function securityNoticeRepositoryContract(
  name: string,
  harness: () => SecurityNoticeRepositoryHarness,
): void {
  describe(`${name} (SecurityNoticeRepository contract)`, () => {
    let notices: SecurityNoticeRepository;
    let events: SecurityEventRepository;
    let newUserId: () => Promise<number>;
    beforeEach(() => {
      ({ notices, events, newUserId } = harness());
    });

    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
    const anEvent = async (userId: number, minute = 0) =>
      events.append({
        userId,
        kind: 'backup_code_used',
        method: 'backup_code',
        details: { remaining: 9 },
        origin: { address: '203.0.113.7', userAgent: 'contract/1.0' },
        occurredAt: at(minute),
      });

    it('a pending notice is found with its event until it is sent, once', async () => {
      const event = await anEvent(await newUserId());
      expect(await notices.findPending(event.id)).toBeNull();
      await notices.addPending(event.id, at(0));
      await notices.addPending(event.id, at(1));
      expect(await notices.findPending(event.id)).toEqual(event);
      expect(await notices.markSent(event.id, at(2))).toBe(true);
      expect(await notices.findPending(event.id)).toBeNull();
      expect(await notices.markSent(event.id, at(3))).toBe(false);
      expect(await notices.markAbandoned(event.id, at(3))).toBe(false);
    });

    it('an abandoned notice is no longer pending', async () => {
      const event = await anEvent(await newUserId());
      await notices.addPending(event.id, at(0));
      expect(await notices.markAbandoned(event.id, at(1))).toBe(true);
      expect(await notices.findPending(event.id)).toBeNull();
      expect(await notices.markSent(event.id, at(2))).toBe(false);
    });

    it('lists the notices pending since before an instant, oldest first, at most the limit', async () => {
      const userId = await newUserId();
      const [a, b, c, sent] = [
        await anEvent(userId),
        await anEvent(userId),
        await anEvent(userId),
        await anEvent(userId),
      ];
      // Far in the past, so no notice of another test is older.
      const long = (minute: number) => new Date(Date.UTC(2000, 0, 1, 0, minute));
      await notices.addPending(b.id, long(1));
      await notices.addPending(a.id, long(2));
      await notices.addPending(c.id, long(30));
      await notices.addPending(sent.id, long(0));
      await notices.markSent(sent.id, long(3));
      expect(await notices.pendingSince(long(10), 10)).toEqual([b.id, a.id]);
      expect(await notices.pendingSince(long(10), 1)).toEqual([b.id]);
      await notices.markSent(b.id, long(40));
      await notices.markAbandoned(a.id, long(40));
      await notices.markSent(c.id, long(40));
      expect(await notices.pendingSince(long(59), 10)).toEqual([]);
    });
  });
}
