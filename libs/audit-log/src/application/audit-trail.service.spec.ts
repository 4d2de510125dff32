import { auditLogKit, testAuditEntry, testAuditLogSettings } from '../testing/audit-log-kit';

const entry = (n: number) =>
  testAuditEntry({ args: { n }, occurredAt: new Date(Date.UTC(2026, 0, 1, 12, 0, n)) });

describe('AuditTrail', () => {
  it('resolves an append once its entry is written', async () => {
    const { repository, trail } = auditLogKit();
    await trail.append(entry(1));
    expect(repository.rows.map((row) => row.args.n)).toEqual([1]);
  });

  it('group commit: entries arriving while an INSERT runs share the next one, in order', async () => {
    const { repository, trail } = auditLogKit();
    let open!: () => void;
    repository.gate = new Promise((resolve) => (open = resolve));
    const appended = [1, 2, 3, 4, 5].map((n) => trail.append(entry(n)));
    expect(trail.pending).toBe(5);
    repository.gate = null;
    open();
    await Promise.all(appended);
    // The first INSERT took the one entry there when it started; the rest went together.
    expect(repository.batches).toEqual([1, 4]);
    expect(repository.rows.map((row) => row.args.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('bounds the wait: a request is answered after it, and its entry is written once the database answers', async () => {
    const { repository, trail } = auditLogKit({
      settings: testAuditLogSettings({ appendWaitMs: 50 }),
    });
    repository.failures = 1;
    const started = Date.now();
    await trail.append(entry(1));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(repository.rows).toEqual([]);
    expect(trail.pending).toBe(1);
    await trail.beforeApplicationShutdown();
    expect(repository.rows.map((row) => row.args.n)).toEqual([1]);
    expect(trail.pending).toBe(0);
  });
});
