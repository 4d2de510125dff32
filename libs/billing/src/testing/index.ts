/** Fakes of the billing ports, their kit and builders, for tests here and in other contexts. */
export * from './billing-builders';
export * from './billing-kit';
export * from './billed-spend-reader.contract';
export * from './in-memory-billed-spend.reader';
export * from './in-memory-charge-export.source';
export * from './in-memory-charge-report.reader';
export * from './in-memory-charge-statement.reader';
export * from './in-memory-contract.repository';
export { InMemoryContracts } from './in-memory-contracts';

/** For end-to-end tests: the export budget an api process holds (its slots in flight). */
export { ExportSlots } from '../application/export-slots.service';
/** For end-to-end tests that seed many charges at once: the summaries' rebuild statements. */
export { bulkChargeTotalsSql } from '../infrastructure/persistence/charge-totals.sql';
export { bulkReportDaysSql } from '../infrastructure/persistence/report-days.sql';
export { bulkStatementDaysSql } from '../infrastructure/persistence/statement-days.sql';
