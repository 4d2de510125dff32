import { BilledSpendReader } from '../application/ports/billed-spend.reader.port';
import { Contract } from '../domain/contract';
import { StoredContracts, testCharge, testContract } from './billing-builders';

/** What the contract runs against: a reader, over contracts it stores. */
export interface BilledSpendReaderSubject extends StoredContracts {
  reader: BilledSpendReader;
}

const DAY = 86_400;
const D = Date.UTC(2026, 2, 1) / 1000;

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL:
 * the billed sum (each line rounded to 3 decimals, docs/billing.md "Billed amounts") of an
 * owner's charges in [fromDay, toDay), with every scope key given having to match.
 */
export function billedSpendReaderContract(setup: () => Promise<BilledSpendReaderSubject>): void {
  let subject: BilledSpendReaderSubject;
  const contract = (n: number, fields: Partial<Contract> = {}) =>
    testContract(subject.firstId + n, {
      userId: subject.main,
      start: D - 5 * DAY,
      end: D + 5 * DAY,
      ...fields,
    });
  const gpu = (day: number, amount: string) => testCharge(day, 'gpu', '1', amount, amount);
  const disk = (day: number, amount: string) => testCharge(day, 'disk', '1', amount, amount);
  const spent = (fields: Partial<Parameters<BilledSpendReader['billedBetween']>[0]> = {}) =>
    subject.reader.billedBetween({
      ownerKey: subject.main,
      fromDay: D - 2 * DAY,
      toDay: D + 2 * DAY,
      ...fields,
    });

  beforeAll(async () => {
    subject = await setup();
    const rows: [Contract, ReturnType<typeof gpu>[]][] = [
      [contract(1, { label: 'train' }), [gpu(D, '10.0004'), disk(D + DAY, '0.0005')]],
      [contract(2, { endpointId: 501, workergroupId: 601 }), [gpu(D, '0.0004'), gpu(D - DAY, '2')]],
      [contract(3, { workergroupId: 601, label: 'train' }), [gpu(D - 2 * DAY, '3.1415')]],
      [contract(4), [gpu(D - 3 * DAY, '100'), gpu(D + 2 * DAY, '100')]],
      [contract(5, { userId: subject.other }), [gpu(D, '1000')]],
      [contract(6, { teamId: subject.team }), [gpu(D, '7.25')]],
    ];
    for (const [row, charges] of rows) await subject.store(row, charges);
  });

  it('sums the billed amounts of the range, its first day in and its end out', async () => {
    // 10.000 + 0.001 + 0 + 2.000 + 3.142; the charges of D - 3 days and D + 2 days are out.
    expect(await spent()).toBe('15.143');
  });

  it('keeps to the owner: another user, and a team apart from its member', async () => {
    expect(await spent({ ownerKey: subject.other })).toBe('1000.000');
    expect(await spent({ ownerKey: -subject.team })).toBe('7.250');
  });

  it('narrows to the scope, every key given matching', async () => {
    expect(await spent({ label: 'train' })).toBe('13.143');
    expect(await spent({ workergroupId: 601 })).toBe('5.142');
    expect(await spent({ endpointId: 501 })).toBe('2.000');
    expect(await spent({ endpointId: 501, workergroupId: 601 })).toBe('2.000');
    expect(await spent({ label: 'train', workergroupId: 601 })).toBe('3.142');
    expect(await spent({ label: 'none' })).toBe('0.000');
    // Contracts without a label are not labelled '(none)', whatever a summary calls them.
    expect(await spent({ label: '(none)' })).toBe('0.000');
  });

  it('answers 0.000 for a range without charges', async () => {
    expect(await spent({ fromDay: D + 30 * DAY, toDay: D + 31 * DAY })).toBe('0.000');
  });

  it('sees a rewritten contract as it now is', async () => {
    await subject.store(contract(7), [gpu(D, '1')]);
    expect(await spent()).toBe('16.143');
    await subject.store(contract(7), [gpu(D, '0.5')]);
    expect(await spent()).toBe('15.643');
  });
}
