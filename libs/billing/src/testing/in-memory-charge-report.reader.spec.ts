import { chargeReportReaderContract } from './charge-report-reader.contract';
import { InMemoryChargeReportReader } from './in-memory-charge-report.reader';

describe('InMemoryChargeReportReader', () => {
  chargeReportReaderContract(async () => {
    const reader = new InMemoryChargeReportReader();
    return {
      reader,
      store: async (contract, charges) => reader.add(contract, charges),
      main: 1,
      other: 2,
      firstId: 96_000,
    };
  });
});
