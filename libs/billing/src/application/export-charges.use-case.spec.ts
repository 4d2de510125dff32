import { ChargeLine } from '../domain/charge-export';
import { Contract } from '../domain/contract';
import { InMemoryChargeExportSource } from '../testing/in-memory-charge-export.source';
import { ExportChargesUseCase } from './export-charges.use-case';

const DAY = 86_400;
const JAN_1 = Date.UTC(2026, 0, 1) / 1000;

function contract(id: number, userId: number, overrides: Partial<Contract> = {}): Contract {
  return {
    id,
    userId,
    kind: 'instance',
    start: JAN_1,
    end: JAN_1 + 10 * DAY,
    label: null,
    templateId: null,
    endpointId: null,
    workergroupId: null,
    ...overrides,
  };
}

const disk = (day: number) => ({
  day,
  type: 'disk' as const,
  quantity: '10',
  unit: 'GB-days',
  rate: '0.005',
  amount: '0.05',
});

async function drain(stream: AsyncIterable<ChargeLine>): Promise<ChargeLine[]> {
  const lines: ChargeLine[] = [];
  for await (const line of stream) lines.push(line);
  return lines;
}

describe('ExportChargesUseCase', () => {
  let source: InMemoryChargeExportSource;
  let useCase: ExportChargesUseCase;

  beforeEach(() => {
    source = new InMemoryChargeExportSource();
    useCase = new ExportChargesUseCase(source);
    source.add(contract(1, 7), [disk(JAN_1), disk(JAN_1 + DAY), disk(JAN_1 + 40 * DAY)]);
    source.add(contract(2, 7, { kind: 'volume' }), [disk(JAN_1 + 2 * DAY)]);
    source.add(contract(3, 8), [disk(JAN_1)]);
  });

  it("streams the caller's lines in range, with their count, under the range's file name", async () => {
    const exported = await useCase.execute(7, {
      gte: JAN_1,
      lte: JAN_1 + 30 * DAY + 5,
      categories: null,
      format: 'csv',
    });
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
    const exported = await useCase.execute(7, {
      gte: JAN_1 + 1,
      lte: JAN_1 + 2 * DAY,
      categories: ['volume'],
      format: 'ndjson',
    });
    expect(exported.fileName).toBe('charges-2026-01-02-2026-01-03.ndjson');
    expect((await drain(exported.lines)).map((line) => line.contractType)).toEqual(['volume']);
  });
});
