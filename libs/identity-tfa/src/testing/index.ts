/**
 * Fakes of the 2FA ports, their contract suites and the kit that wires
 * them (tfaTestKit), for use-case tests here and in other contexts.
 */
export * from './backup-code-repository.contract';
export * from './challenge-store.contract';
export * from './in-memory-tfa.fakes';
export * from './tfa-method-repository.contract';
export * from './tfa-test-kit';
export * from './verification-ledger.contract';
