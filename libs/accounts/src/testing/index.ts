export * from './in-memory-accounts';
