import { onFakes } from './billing-kit';
import { billedSpendReaderContract } from './billed-spend-reader.contract';
import { chargeExportSourceContract } from './charge-export-source.contract';
import { chargeReportReaderContract } from './charge-report-reader.contract';
import { chargeStatementReaderContract } from './charge-statement-reader.contract';

/** The billing fakes the use-case specs run on answer as the PostgreSQL adapters' contracts say. */
describe('InMemoryChargeReportReader', () => {
  onFakes(96_000, chargeReportReaderContract, (kit) => ({ reader: kit.reports }));
});

describe('InMemoryChargeStatementReader', () => {
  onFakes(97_000, chargeStatementReaderContract, (kit) => ({ reader: kit.statements }));
});

describe('InMemoryChargeExportSource', () => {
  onFakes(98_000, chargeExportSourceContract, (kit) => ({ source: kit.exports }));
});

describe('InMemoryBilledSpendReader', () => {
  onFakes(95_000, billedSpendReaderContract, (kit) => ({ reader: kit.spend }));
});
