import { AuditLogRepository } from '../application/ports/audit-log.repository.port';
import { NewAuditEntry } from '../domain/audit-entry';

export interface AuditLogRepositorySubject {
  entries: AuditLogRepository;
  newUser(): Promise<number>;
  /** A team id of this suite's. */
  teamId: number;
}

/**
 * One suite, run on the in-memory fake by a unit spec and on PostgreSQL by an int-spec,
 * so the use-case tests' fake answers as the real repository does.
 */
export function auditLogRepositoryContract(setup: () => Promise<AuditLogRepositorySubject>): void {
  let subject: AuditLogRepositorySubject;
  const T0 = Date.UTC(2026, 0, 1, 12);

  beforeAll(async () => {
    subject = await setup();
  });

  const entry = (
    userId: number,
    n: number,
    fields: Partial<NewAuditEntry> = {},
  ): NewAuditEntry => ({
    userId,
    teamId: null,
    credentialKind: 'api_key',
    credentialId: 1_000_000 + n,
    address: '203.0.113.7',
    method: 'PUT',
    route: '/api/v0/endptjobs/{id}/',
    routeName: 'api.endptjobs.update',
    args: { id: String(n), max_workers: n, nested: { list: [1, 'two'] } },
    occurredAt: new Date(T0 + n * 1000),
    ...fields,
  });

  it('appends a batch in order and pages a user’s entries newest first', async () => {
    const [user, other] = [await subject.newUser(), await subject.newUser()];
    await subject.entries.appendMany([
      entry(user, 1),
      entry(user, 2),
      entry(other, 3),
      entry(user, 4),
    ]);
    await subject.entries.appendMany([]);
    const page = await subject.entries.listPage(user, null, 2, null);
    expect(page.map((e) => e.args.max_workers)).toEqual([4, 2]);
    expect(page[0]).toEqual({ ...entry(user, 4), id: expect.any(Number) });
    const rest = await subject.entries.listPage(user, null, 2, page[1].id);
    expect(rest.map((e) => e.args.max_workers)).toEqual([1]);
    expect(page[0].id).toBeGreaterThan(page[1].id);
  });

  it('appends one entry as a batch of one does', async () => {
    const user = await subject.newUser();
    await subject.entries.append(entry(user, 10));
    await subject.entries.appendMany([entry(user, 11)]);
    const page = await subject.entries.listPage(user, null, 10, null);
    expect(page).toEqual([
      { ...entry(user, 11), id: expect.any(Number) },
      { ...entry(user, 10), id: expect.any(Number) },
    ]);
  });

  it('keeps contexts apart: a team key’s entries are not the personal ones', async () => {
    const user = await subject.newUser();
    await subject.entries.appendMany([
      entry(user, 5, { teamId: subject.teamId, credentialKind: 'session' }),
      entry(user, 6),
    ]);
    const team = await subject.entries.listPage(user, subject.teamId, 10, null);
    expect(team.map((e) => [e.credentialKind, e.args.max_workers])).toEqual([['session', 5]]);
    expect(
      (await subject.entries.listPage(user, null, 10, null)).map((e) => e.args.max_workers),
    ).toEqual([6]);
  });

  it('prunes entries made before an instant, a batch at a time', async () => {
    const user = await subject.newUser();
    const old = new Date(Date.UTC(2000, 0, 1));
    await subject.entries.appendMany([
      entry(user, 7, { occurredAt: old }),
      entry(user, 8, { occurredAt: old }),
      entry(user, 9, { occurredAt: new Date(Date.UTC(2000, 0, 3)) }),
    ]);
    const before = new Date(Date.UTC(2000, 0, 2));
    expect(await subject.entries.pruneBatch(before, 1)).toBe(1);
    expect(await subject.entries.pruneBatch(before, 10)).toBe(1);
    expect(await subject.entries.pruneBatch(before, 10)).toBe(0);
    expect(
      (await subject.entries.listPage(user, null, 10, null)).map((e) => e.args.max_workers),
    ).toEqual([9]);
  });
}
