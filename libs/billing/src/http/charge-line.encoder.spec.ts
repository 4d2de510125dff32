import { ChargeLine } from '../domain/charge-export';
import { Readable } from 'node:stream';
import {
  ChargeLineEncoder,
  csvField,
  csvRecord,
  ndjsonRecord,
  neutralisedText,
} from './charge-line.encoder';

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
  billed: '9.336',
};

describe('charge export rows', () => {
  it('quotes per RFC 4180 only when needed', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('x\r\ny')).toBe('"x\r\ny"');
  });

  it('writes a CSV record ending in CRLF, empty fields for missing values, exact and billed amounts', () => {
    expect(csvRecord(line)).toBe(
      '7,serverless,"a,""b""\nc",501,,gpu,2026-01-31,24,hours,0.389,9.336000001,9.336\r\n',
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
      billed_amount: '9.336',
    });
    expect(ndjsonRecord(line).endsWith('}\n')).toBe(true);
  });

  it('writes NDJSON byte for byte as JSON.stringify of the record in column order', () => {
    const texts = [
      'plain',
      'a"b\\c',
      'tab\there\nline',
      '\u2028\u2029',
      'é 😀',
      '\u0000\u001f',
      '',
    ];
    for (const label of [...texts, null])
      for (const unit of texts) {
        const hostile: ChargeLine = { ...line, label, unit, endpointId: null, workergroupId: 9 };
        const record = {
          contract_id: hostile.contractId,
          contract_type: hostile.contractType,
          label: hostile.label,
          endpoint_id: hostile.endpointId,
          workergroup_id: hostile.workergroupId,
          type: hostile.type,
          day: '2026-01-31',
          quantity: hostile.quantity,
          unit: hostile.unit,
          rate: hostile.rate,
          amount: hostile.amount,
          billed_amount: hostile.billed,
        };
        expect(ndjsonRecord(hostile)).toBe(`${JSON.stringify(record)}\n`);
      }
  });

  it('writes the same day for the same midnight however often it repeats', () => {
    const days = [0, 86_400, Date.UTC(2024, 1, 29) / 1000, 253_402_214_400 - 86_400];
    for (let round = 0; round < 3; round++)
      for (const day of days)
        expect(csvRecord({ ...line, label: 'plain', day }).split(',')[6]).toBe(
          new Date(day * 1000).toISOString().slice(0, 10),
        );
  });

  it('neutralises text cells a spreadsheet would run as a formula (OWASP CSV injection)', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(neutralisedText(`${start}1+2`)).toBe(`'${start}1+2`);
    for (const safe of ['train', "'quoted", ' =padded', '1e3', ''])
      expect(neutralisedText(safe)).toBe(safe);
    const hostile: ChargeLine = {
      ...line,
      label: '=HYPERLINK("http://x.test","click")',
      unit: '@SUM(A1)',
      amount: '-0.5',
      billed: '-0.500',
      quantity: '-2',
    };
    // Text cells get the quote (then RFC 4180 quoting); numbers, negative ones too, are exact.
    expect(csvRecord(hostile)).toBe(
      `7,serverless,"'=HYPERLINK(""http://x.test"",""click"")",501,,gpu,2026-01-31,-2,'@SUM(A1),0.389,-0.5,-0.500\r\n`,
    );
    expect(csvRecord(hostile, { escapeFormulas: false, bom: false })).toBe(
      '7,serverless,"=HYPERLINK(""http://x.test"",""click"")",501,,gpu,2026-01-31,-2,@SUM(A1),0.389,-0.5,-0.500\r\n',
    );
    // NDJSON is data, not a spreadsheet: values as stored.
    expect(JSON.parse(ndjsonRecord(hostile)).label).toBe('=HYPERLINK("http://x.test","click")');
  });

  it('starts a CSV with a UTF-8 byte order mark only when asked', async () => {
    const encode = async (csv: { escapeFormulas: boolean; bom: boolean }) => {
      const chunks: string[] = [];
      for await (const chunk of Readable.from([line]).pipe(new ChargeLineEncoder('csv', csv)))
        chunks.push(String(chunk));
      return chunks.join('');
    };
    expect(await encode({ escapeFormulas: true, bom: true })).toMatch(/^\uFEFFcontract_id,/);
    expect(await encode({ escapeFormulas: true, bom: false })).toMatch(/^contract_id,/);
  });
});
