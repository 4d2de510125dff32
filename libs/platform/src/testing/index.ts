/**
 * The platform's test kit: fakes of its ports and helpers that every context's specs use
 * (docs/architecture.md "Where do tests go?").
 */
export * from './in-memory-rate-limiter';
export * from './manual-clock';
export * from './random-sources';
export * from './recording-metrics';
export * from './redis-slots';
export * from './rejections';
export * from './static-access-catalog';
export * from './test-origin';
export * from './test-principal';
export * from './test-secret-keeper';
export * from './units-of-work';

/** How the deploy files' tracing settings are read, for the test that checks them. */
export { readTracingSettings } from '../infrastructure/observability/tracing-settings';

/** The lag-tolerant reads of a deployment without a replica: for adapters' int-specs. */
export { PrimaryOnlyReads } from '../infrastructure/database/replica-reads';
