/** The spend guards test kit: its fakes and contract suites, for other contexts' specs too. */
export * from './spend-guards-kit';
export * from './budget-repository.contract';
export * from './in-memory-budgets';
export * from './in-memory-budget-alerts';
export * from './in-memory-webhook-outbox';
export * from './in-memory-webhooks';
export * from './webhook-repositories.contract';
export * from './webhooks-kit';
