import { AtCapacityError, TooManyInFlightError } from '@app/platform';
import { RecordingMetrics } from '@app/platform/testing';
import { ChargeLine, ExportSettings } from '../domain/charge-export';
import { Contract } from '../domain/contract';
import { testCharge, testContract } from '../testing/billing-builders';
import { InMemoryChargeExportSource } from '../testing/in-memory-charge-export.source';
import { ExportChargesUseCase } from './export-charges.use-case';
import { ExportSlots } from './export-slots.service';

const DAY = 86_400;
const JAN_1 = Date.UTC(2026, 0, 1) / 1000;

const contract = (id: number, userId: number, fields: Partial<Contract> = {}) =>
  testContract(id, { userId, start: JAN_1, end: JAN_1 + 10 * DAY, ...fields });

const disk = (day: number) => testCharge(day, 'disk', '10', '0.005', '0.05');

async function drain(stream: AsyncIterable<ChargeLine>): Promise<ChargeLine[]> {
  const lines: ChargeLine[] = [];
  for await (const line of stream) lines.push(line);
  return lines;
}

const SETTINGS = Object.assign(new ExportSettings(), {
  inFlight: 2,
  inFlightPerUser: 1,
  stallTimeoutMs: 15_000,
  maxDurationMs: 600_000,
});

describe('ExportChargesUseCase', () => {
  let source: InMemoryChargeExportSource;
  let slots: ExportSlots;
  let metrics: RecordingMetrics;
  let useCase: ExportChargesUseCase;
  const query = { gte: JAN_1, lte: JAN_1 + 30 * DAY, categories: null, format: 'csv' as const };

  beforeEach(() => {
    source = new InMemoryChargeExportSource();
    metrics = new RecordingMetrics();
    slots = new ExportSlots(SETTINGS, metrics);
    useCase = new ExportChargesUseCase(source, slots);
    source.add(contract(1, 7), [disk(JAN_1), disk(JAN_1 + DAY), disk(JAN_1 + 40 * DAY)]);
    source.add(contract(2, 7, { kind: 'volume' }), [disk(JAN_1 + 2 * DAY)]);
    source.add(contract(3, 8), [disk(JAN_1)]);
  });

  it("streams the caller's lines in range, with their count, under the range's file name", async () => {
    const exported = await useCase.execute(
      { userId: 7, teamId: null },
      {
        gte: JAN_1,
        lte: JAN_1 + 30 * DAY + 5,
        categories: null,
        format: 'csv',
      },
    );
    expect(exported.fileName).toBe('charges-2026-01-01-2026-01-31.csv');
    expect(exported.expectedLines).toBe(3);
    const lines = await drain(exported.lines);
    expect(lines.map((line) => [line.contractId, line.day])).toEqual([
      [1, JAN_1],
      [1, JAN_1 + DAY],
      [2, JAN_1 + 2 * DAY],
    ]);
  });

  it('keeps to the classes asked for and names the file in its format', async () => {
    const exported = await useCase.execute(
      { userId: 7, teamId: null },
      {
        gte: JAN_1 + 1,
        lte: JAN_1 + 2 * DAY,
        categories: ['volume'],
        format: 'ndjson',
      },
    );
    expect(exported.fileName).toBe('charges-2026-01-02-2026-01-03.ndjson');
    expect((await drain(exported.lines)).map((line) => line.contractType)).toEqual(['volume']);
  });

  describe('the export budget', () => {
    it('holds a slot while the stream is open and frees it at its end', async () => {
      const exported = await useCase.execute({ userId: 7, teamId: null }, query);
      expect(slots.inFlight()).toBe(1);
      await drain(exported.lines);
      await new Promise((resolve) => setImmediate(resolve));
      expect(slots.inFlight()).toBe(0);
    });

    it('refuses a second export of one user (429) and a third in the process (503)', async () => {
      const first = await useCase.execute({ userId: 7, teamId: null }, query);
      await expect(useCase.execute({ userId: 7, teamId: null }, query)).rejects.toBeInstanceOf(
        TooManyInFlightError,
      );
      const second = await useCase.execute({ userId: 8, teamId: null }, query);
      await expect(useCase.execute({ userId: 9, teamId: null }, query)).rejects.toBeInstanceOf(
        AtCapacityError,
      );
      expect(metrics.counts).toEqual([
        { name: 'concurrency_refusals_total', labels: { bucket: 'charges_export' } },
        { name: 'concurrency_refusals_total', labels: { bucket: 'charges_export_server' } },
      ]);
      // A destroyed stream (the client went away, a cut) frees its slot too.
      first.lines.destroy();
      await new Promise((resolve) => setImmediate(resolve));
      expect(slots.inFlight()).toBe(1);
      await expect(useCase.execute({ userId: 9, teamId: null }, query)).resolves.toBeDefined();
      second.lines.destroy();
    });

    it('frees the slot when the source cannot open', async () => {
      jest.spyOn(source, 'open').mockRejectedValueOnce(new Error('pool exhausted'));
      await expect(useCase.execute({ userId: 7, teamId: null }, query)).rejects.toThrow(
        'pool exhausted',
      );
      expect(slots.inFlight()).toBe(0);
    });
  });
});
