import { ChargeExportSource } from '../application/ports/charge-export.source.port';
import { ChargeExportQuery, ChargeLine } from '../domain/charge-export';
import { chargeOwnerKey, Contract, DailyCharge } from '../domain/contract';
import { StoredContracts, testCharge, testContract } from './billing-builders';

/** What the contract runs against: a source, over contracts it stores. */
export interface ChargeExportSourceSubject extends StoredContracts {
  source: ChargeExportSource;
}

const DAY = 86_400;
/** 2026-04-01, the middle of the range [D - 1 day, D + 1 day]. */
const D = Date.UTC(2026, 3, 1) / 1000;

/**
 * One suite, run by a unit spec on the in-memory fake and by an int-spec on PostgreSQL
 * (docs/architecture.md "Where do tests go?"): the export's lines in export order
 * (contracts by start then source, then day, then gpu, disk, bwd, bwu; docs/billing.md
 * "Export"), each with its contract's fields, the count announced before the first line,
 * the type filter and range, and a stream given up before its end.
 */
export function chargeExportSourceContract(setup: () => Promise<ChargeExportSourceSubject>): void {
  let subject: ChargeExportSourceSubject;
  const id = (n: number) => subject.firstId + n;
  const contract = (n: number, fields: Partial<Contract>) =>
    testContract(id(n), { userId: subject.main, end: D + 10 * DAY, ...fields });

  const query = (fields: Partial<ChargeExportQuery> = {}): ChargeExportQuery => ({
    gte: D - DAY,
    lte: D + DAY,
    categories: null,
    format: 'csv',
    ...fields,
  });

  async function exported(fields: Partial<ChargeExportQuery> = {}, userId = subject.main) {
    const { expectedLines, lines } = await subject.source.open(userId, query(fields));
    const read: ChargeLine[] = [];
    for await (const line of lines) read.push(line as ChargeLine);
    return { expectedLines, lines: read };
  }
  const keys = (lines: ChargeLine[]) =>
    lines.map((line) => `${line.contractId - subject.firstId} ${line.type} ${line.day - D}`);

  beforeAll(async () => {
    subject = await setup();
    const start = D - 10 * DAY;
    const fixture: Array<[Contract, DailyCharge[]]> = [
      [
        contract(1, { start: start + 10, label: 'train', templateId: 101 }),
        [
          testCharge(D, 'bwu', '3.1', '0.008', '0.0248'),
          testCharge(D, 'gpu', '24', '0.389', '9.336'),
          testCharge(D, 'disk', '100', '0.005', '0.5'),
          testCharge(D - DAY, 'gpu', '23', '0.389', '8.947'),
        ],
      ],
      [
        contract(2, { kind: 'volume', start: start + 5 }),
        [testCharge(D, 'disk', '50', '0.004', '0.2')],
      ],
      [
        contract(3, { start: start + 10, endpointId: 501, workergroupId: 601 }),
        [testCharge(D, 'gpu', '18', '0.5', '9.0')],
      ],
      [contract(4, { userId: subject.other, start }), [testCharge(D, 'gpu', '1', '1', '1')]],
      [contract(5, { start }), [testCharge(D + 5 * DAY, 'gpu', '1', '1', '1')]],
      // The team's, made by main: in none of main's own exports.
      [contract(6, { teamId: subject.team, start }), [testCharge(D, 'bwd', '2', '1', '2')]],
    ];
    for (const [stored, charges] of fixture) await subject.store(stored, charges);
  });

  it('streams the lines in export order, after announcing how many there are', async () => {
    const { expectedLines, lines } = await exported();
    expect(keys(lines)).toEqual([
      `2 disk 0`,
      `1 gpu ${-DAY}`,
      `1 gpu 0`,
      `1 disk 0`,
      `1 bwu 0`,
      `3 gpu 0`,
    ]);
    expect(expectedLines).toBe(6);
  });

  it("gives each line its contract's class and keys, and the charge as stored", async () => {
    const { lines } = await exported();
    expect(lines[1]).toEqual({
      contractId: id(1),
      contractType: 'instance',
      label: 'train',
      endpointId: null,
      workergroupId: null,
      type: 'gpu',
      day: D - DAY,
      quantity: '23',
      unit: 'hours',
      rate: '0.389',
      amount: '8.947',
      billed: '8.947',
    });
    expect(lines[0]).toMatchObject({ contractType: 'volume', quantity: '50', rate: '0.004' });
    expect(lines[5]).toMatchObject({
      contractType: 'serverless',
      endpointId: 501,
      workergroupId: 601,
      amount: '9.0',
      billed: '9.000',
    });
  });

  it('keeps to the type filter, the range and the caller', async () => {
    expect(keys((await exported({ categories: ['serverless'] })).lines)).toEqual([`3 gpu 0`]);
    expect((await exported({ categories: ['instance', 'volume'] })).expectedLines).toBe(5);
    expect(keys((await exported({ gte: D + DAY, lte: D + 6 * DAY })).lines)).toEqual([
      `5 gpu ${5 * DAY}`,
    ]);
    const others = await exported({}, subject.other);
    expect([others.expectedLines, keys(others.lines)]).toEqual([1, [`4 gpu 0`]]);
    expect(await exported({ gte: D + 30 * DAY, lte: D + 31 * DAY })).toEqual({
      expectedLines: 0,
      lines: [],
    });
  });

  it('closes a stream given up before its end', async () => {
    const { lines } = await subject.source.open(subject.main, query());
    const closed = new Promise((resolve) => lines.once('close', resolve));
    for await (const line of lines) {
      expect(line).toMatchObject({ contractId: id(2) });
      break;
    }
    await closed;
    expect(lines.destroyed).toBe(true);
  });

  it("exports a team's contracts under the team's key only", async () => {
    const team = await exported({}, chargeOwnerKey({ userId: subject.main, teamId: subject.team }));
    expect([team.expectedLines, keys(team.lines)]).toEqual([1, [`6 bwd 0`]]);
    expect((await exported({}, -subject.team - 1)).expectedLines).toBe(0);
  });
}
