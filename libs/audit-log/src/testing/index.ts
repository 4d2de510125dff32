/** Fakes of the audit-log ports, their kit and builders, for tests here and in other contexts. */
export * from './audit-log-kit';
export * from './in-memory-audit-log';
