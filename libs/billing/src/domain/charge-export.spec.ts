import { exportFileName } from './charge-export';

describe('charge export', () => {
  it('names the file after the first and last day of the range', () => {
    const gte = Date.UTC(2026, 0, 1) / 1000;
    expect(exportFileName({ gte, lte: gte + 30 * 86_400 + 5, format: 'csv' })).toBe(
      'charges-2026-01-01-2026-01-31.csv',
    );
    expect(exportFileName({ gte: -1e15, lte: 1e15, format: 'ndjson' })).toBe(
      'charges-1970-01-01-9999-12-31.ndjson',
    );
  });
});
