/**
 * Fakes of the account-security ports, their contract suites and the kit that wires them
 * (accountSecurityKit), for use-case tests here and in other contexts; and what the
 * end-to-end tests reach inside: the notice queue's port (to stand a failing one in), the
 * settings' loader, and the user lock's adapter (the verification ledger's int-spec).
 */
export * from './account-security-kit';
export * from './in-memory-account-security.fakes';
export * from './in-memory-user-security.fakes';
export * from './security-event-repository.contract';
export * from './security-notice-repository.contract';
export * from './trusted-device-repository.contract';
export { SecurityNoticeQueue } from '../application/ports/security-notice.queue.port';
export { loadAccountSecuritySettings } from '../infrastructure/account-security-config';
export { PostgresUserSecurityLock } from '../infrastructure/persistence/postgres-user-security-lock';
export * from './user-security-lock.contract';
