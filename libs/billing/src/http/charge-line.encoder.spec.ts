import { ChargeLine } from '../domain/charge-export';
import { csvField, csvRecord, ndjsonRecord } from './charge-line.encoder';

const line: ChargeLine = {
  contractId: 7,
  contractType: 'serverless',
  label: 'a,"b"\nc',
  endpointId: 501,
  workergroupId: null,
  type: 'gpu',
  day: Date.UTC(2026, 0, 31) / 1000,
  quantity: '24',
  unit: 'hours',
  rate: '0.389',
  amount: '9.336000001',
};

describe('charge export rows', () => {
  it('quotes per RFC 4180 only when needed', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('x\r\ny')).toBe('"x\r\ny"');
  });

  it('writes a CSV record ending in CRLF, empty fields for missing values, exact amounts', () => {
    expect(csvRecord(line)).toBe(
      '7,serverless,"a,""b""\nc",501,,gpu,2026-01-31,24,hours,0.389,9.336000001\r\n',
    );
  });

  it('writes an NDJSON line with nulls and decimal strings', () => {
    expect(JSON.parse(ndjsonRecord(line))).toEqual({
      contract_id: 7,
      contract_type: 'serverless',
      label: 'a,"b"\nc',
      endpoint_id: 501,
      workergroup_id: null,
      type: 'gpu',
      day: '2026-01-31',
      quantity: '24',
      unit: 'hours',
      rate: '0.389',
      amount: '9.336000001',
    });
    expect(ndjsonRecord(line).endsWith('}\n')).toBe(true);
  });
});
