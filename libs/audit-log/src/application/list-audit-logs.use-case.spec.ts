import { testPrincipal } from '@app/platform/testing';
import { auditLogKit, testAuditEntry, testAuditLogSettings } from '../testing/audit-log-kit';

const principal = (userId: number) => testPrincipal({ userId, credentialId: 9 });

const entry = (userId: number, n: number, at = Date.UTC(2026, 0, 1, 12)) =>
  testAuditEntry({ userId, args: { n }, occurredAt: new Date(at) });

describe('ListAuditLogsUseCase and PruneAuditLogsUseCase', () => {
  it('walks the pages newest first without gap or repeat; a token is the caller’s only', async () => {
    const { repository, list } = auditLogKit();
    await repository.appendMany([1, 2, 3, 4, 5].map((n) => entry(1, n)));
    const seen: unknown[] = [];
    let token: string | null = null;
    do {
      const page = await list.execute({ principal: principal(1), limit: 2, afterToken: token });
      seen.push(...page.entries.map((e) => e.args.n));
      token = page.nextToken;
      if (token)
        await expect(
          list.execute({ principal: principal(2), limit: 2, afterToken: token }),
        ).rejects.toMatchObject({ code: 'invalid_token', message: 'Invalid pagination token' });
    } while (token);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
    await expect(
      list.execute({ principal: principal(1), limit: 2, afterToken: 'forged' }),
    ).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('prunes what is older than the retention, or than the days given', async () => {
    const { repository, clock, prune } = auditLogKit({
      settings: testAuditLogSettings({ retentionDays: 30, appendWaitMs: 1 }),
    });
    const day = 24 * 3600 * 1000;
    await repository.appendMany([
      entry(1, 1, clock.nowMs() - 20 * day),
      entry(1, 2, clock.nowMs() - 5 * day),
    ]);
    expect((await prune.execute()).pruned).toBe(0);
    expect(await prune.execute(10)).toEqual({
      pruned: 1,
      before: new Date(clock.nowMs() - 10 * day),
    });
    expect(repository.rows.map((row) => row.args.n)).toEqual([2]);
  });
});
